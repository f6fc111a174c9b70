import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from '../../src/core/errors.js';
import { runCli } from './cli-harness.js';

interface Validated {
  readonly code: number;
  readonly diagnostics: readonly Diagnostic[];
}

async function validate(root: string): Promise<Validated> {
  const run = await runCli(['data', 'validate', '-p', root, '--format', 'json']);
  const parsed = JSON.parse(run.stdout) as { diagnostics: Diagnostic[] };
  return { code: run.code, diagnostics: parsed.diagnostics };
}

function withCode(result: Validated, code: string): Diagnostic[] {
  return result.diagnostics.filter((item) => item.code === code);
}

describe('parley data validate: the action modules, imported as parley run imports them', function () {
  this.timeout(30_000);
  let parent: string;
  let root: string;

  beforeEach(async () => {
    parent = mkdtempSync(join(tmpdir(), 'parley-action-modules-'));
    // `parley` resolves from the assistant as an installed package would
    mkdirSync(join(parent, 'node_modules'));
    symlinkSync(process.cwd(), join(parent, 'node_modules', 'parley'));
    root = join(parent, 'bot');
    const init = await runCli(['init', root]);
    expect(init.code, init.stderr).to.equal(0);
  });
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  const action = (name: string, extra = ''): string =>
    `import { defineAction } from 'parley';\n${extra}\nexport const a = defineAction({ name: '${name}', run: () => ({}) });\n`;

  it('a scaffolded assistant has no problem with its actions', async () => {
    const result = await validate(root);
    expect(result.diagnostics.filter((item) => item.severity === 'error')).to.deep.equal([]);
    expect(result.diagnostics.map((item) => item.code)).not.to.include.members([
      'ACTION_MODULE_EXPORTS_NO_ACTION',
      'CUSTOM_ACTIONS_NOT_IMPLEMENTED',
    ]);
    expect(result.code).to.equal(0);
  });

  it('reports ESM actions whose package.json is not "type": "module", without importing them', async () => {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'bot', type: 'commonjs' }));
    const result = await validate(root);
    const [problem] = withCode(result, 'ACTIONS_PACKAGE_NOT_ESM');
    expect(problem?.severity).to.equal('error');
    expect(problem?.file).to.equal(join(root, 'actions', 'check-order.ts'));
    expect(problem?.message).to.contain(join(root, 'package.json')).and.contain('has no "type": "module"');
    expect(withCode(result, 'ACTION_MODULE_IMPORT_FAILED')).to.deep.equal([]);
    expect(result.code).to.equal(1);
  });

  it('says so when there is no package.json at all', async () => {
    unlinkSync(join(root, 'package.json'));
    const [problem] = withCode(await validate(root), 'ACTIONS_PACKAGE_NOT_ESM');
    expect(problem?.message).to.contain('no package.json in their folder or above it');
  });

  it('reports a module with a syntax error at its position, and one whose import does not resolve', async () => {
    writeFileSync(join(root, 'actions', 'broken.ts'), action('action_x', 'const x = ;'));
    writeFileSync(join(root, 'actions', 'missing.ts'), action('action_y', "import 'no-such-package-xyz';"));
    const result = await validate(root);
    const failed = withCode(result, 'ACTION_MODULE_IMPORT_FAILED');
    expect(failed.map((item) => item.file)).to.deep.equal([
      join(root, 'actions', 'broken.ts'),
      join(root, 'actions', 'missing.ts'),
    ]);
    expect(failed[0]?.line).to.equal(2); // `const x = ;`, the line after the import
    expect(failed[1]?.message).to.contain('ERR_MODULE_NOT_FOUND').and.contain('no-such-package-xyz');
    expect(result.code).to.equal(1);
    // a module failed: which actions are missing is not known, so none are named
    expect(withCode(result, 'CUSTOM_ACTIONS_NOT_IMPLEMENTED')).to.deep.equal([]);
  });

  it('warns about a module that exports no action, and names the declared action nothing exports', async () => {
    writeFileSync(
      join(root, 'actions', 'check-order.ts'),
      "import { defineAction } from 'parley';\nconst a = defineAction({ name: 'action_check_order', run: () => ({}) });\nvoid a;\n",
    );
    const result = await validate(root);
    const [empty] = withCode(result, 'ACTION_MODULE_EXPORTS_NO_ACTION');
    expect(empty?.severity).to.equal('warning');
    expect(empty?.file).to.equal(join(root, 'actions', 'check-order.ts'));
    const [unexported] = withCode(result, 'CUSTOM_ACTIONS_NOT_IMPLEMENTED');
    expect(unexported?.message).to.contain('(action_check_order)');
  });

  it('does not report a helper module that an action module imports', async () => {
    writeFileSync(join(root, 'actions', 'orders.ts'), "export const ORDERS = { '1': 'x' };\n");
    writeFileSync(
      join(root, 'actions', 'check-order.ts'),
      action('action_check_order', "import { ORDERS } from './orders.js';\nvoid ORDERS;"),
    );
    const result = await validate(root);
    expect(withCode(result, 'ACTION_MODULE_EXPORTS_NO_ACTION')).to.deep.equal([]);
    expect(result.code).to.equal(0);
  });
});
