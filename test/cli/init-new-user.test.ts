/**
 * The new user's path, through the real CLI (bin/parley.js and dist/): `parley init`, `data validate`,
 * `train`, `test e2e`, `run` and one REST turn, each green, on a folder outside the repository where
 * `parley` resolves as an installed package (node_modules/parley links this repository).
 */
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parley, restTurn, startParley } from '../support/parley-process.js';

const ROOT = process.cwd();

describe('a new assistant outside the repository: init, validate, train, test e2e, run', function () {
  this.timeout(240_000);
  let parent: string;

  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))
      throw new Error('dist/ is missing: run `npm run build`');
    parent = mkdtempSync(join(tmpdir(), 'parley-new-user-'));
    mkdirSync(join(parent, 'node_modules'));
    symlinkSync(ROOT, join(parent, 'node_modules', 'parley'));
  });
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('the default template passes each step, and its custom action answers over REST', async () => {
    const init = await parley(['init', 'shop-bot'], parent);
    expect(init.code, init.output).to.equal(0);
    expect(init.output).not.to.contain('not installed');
    const app = join(parent, 'shop-bot');
    for (const args of [['data', 'validate'], ['train'], ['test', 'e2e']]) {
      const ran = await parley(args, app);
      expect(ran.code, `parley ${args.join(' ')}:\n${ran.output}`).to.equal(0);
    }
    const server = await startParley(app);
    try {
      expect(await restTurn(server.url, 'new-user', '/check_order')).to.deep.equal([
        'What is your order number? It has five digits.',
      ]);
      // the action's answer, then the default pattern_completed question
      const answer = await restTurn(server.url, 'new-user', '/SetSlots(order_number=12345)');
      expect(answer[0]).to.equal('Order 12345 is on its way.');
    } finally {
      await server.stop();
    }
  });

  it('says to install parley when the new folder cannot import it', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'parley-no-package-'));
    try {
      const init = await parley(['init', 'bot'], elsewhere);
      expect(init.code, init.output).to.equal(0);
      expect(init.output).to.contain("The custom actions import 'parley', which is not installed");
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('the banking template passes its own tests at once', async () => {
    const init = await parley(['init', 'bank', '--template', 'banking'], parent);
    expect(init.code, init.output).to.equal(0);
    const bank = join(parent, 'bank');
    for (const args of [['data', 'validate'], ['train'], ['test', 'e2e', '-q']]) {
      const ran = await parley(args, bank);
      expect(ran.code, `parley ${args.join(' ')}:\n${ran.output.slice(-3000)}`).to.equal(0);
    }
  });
});
