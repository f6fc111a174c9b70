import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActionDeclaration } from '../../src/core/domain/types.js';
import { declaredCustomActions, listNames } from '../../src/core/domain/custom-actions.js';
import {
  actionModuleFiles,
  actionServerUrl,
  actionsModuleName,
  locateActionsModule,
  pythonModuleFiles,
} from '../../src/project/actions-module.js';

function domainWith(...names: string[]) {
  return { actions: new Map(names.map((name) => [name, {} as ActionDeclaration])) };
}

describe('declared custom actions', () => {
  it('are every declared name but responses (utter_*) and action_session_start, sorted', () => {
    expect(
      declaredCustomActions(
        domainWith('utter_x', 'check', 'action_session_start', 'action_ask_amount', 'validate_amount'),
      ),
    ).to.deep.equal(['action_ask_amount', 'check', 'validate_amount']);
  });

  it('count a declared built-in name: it overrides the built-in, as Rasa calls the action server for it', () => {
    expect(declaredCustomActions(domainWith('action_default_fallback'))).to.deep.equal([
      'action_default_fallback',
    ]);
  });

  it('are listed in full up to the cap, then counted', () => {
    expect(listNames(['a', 'b'], 2)).to.equal('a, b');
    expect(listNames(['a', 'b', 'c'], 2)).to.equal('a, b and 1 more');
  });
});

describe('the actions module of endpoints.yml', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'parley-actions-module-'));
    mkdirSync(join(root, 'my_pkg', 'actions'), { recursive: true });
    writeFileSync(join(root, 'my_pkg', 'actions', 'a.ts'), '');
    writeFileSync(join(root, 'my_pkg', 'actions', 'a.d.ts'), '');
    writeFileSync(join(root, 'my_pkg', 'actions', 'a.test.ts'), '');
    writeFileSync(join(root, 'my_pkg', 'actions', 'b.py'), '');
    writeFileSync(join(root, 'single.mjs'), '');
    writeFileSync(join(root, 'python_only.py'), '');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('is `actions` unless action_endpoint.actions_module names one', () => {
    expect(actionsModuleName({})).to.equal('actions');
    expect(actionsModuleName({ action_endpoint: { url: 'http://x/webhook' } })).to.equal('actions');
    expect(actionsModuleName({ action_endpoint: { actions_module: '  ' } })).to.equal('actions');
    expect(actionsModuleName({ action_endpoint: { actions_module: 'my_pkg.actions' } })).to.equal(
      'my_pkg.actions',
    );
  });

  it('maps a dotted path to a folder, else to a module file, else to the missing folder', () => {
    const folder = locateActionsModule(root, 'my_pkg.actions');
    expect(folder).to.deep.include({ kind: 'folder', relativePath: 'my_pkg/actions' });
    expect(actionModuleFiles(folder)).to.deep.equal(['a.ts']);
    expect(pythonModuleFiles(folder, root)).to.deep.equal(['b.py']);
    const file = locateActionsModule(root, 'single');
    expect(file).to.deep.include({ kind: 'file', path: join(root, 'single.mjs') });
    expect(actionModuleFiles(file)).to.deep.equal([join(root, 'single.mjs')]);
    const python = locateActionsModule(root, 'python_only');
    expect(python.kind).to.equal('missing');
    expect(actionModuleFiles(python)).to.deep.equal([]);
    expect(pythonModuleFiles(python, root)).to.deep.equal(['python_only.py']);
  });

  it('has an action server url only without actions_module (which wins, as in Rasa)', () => {
    expect(actionServerUrl({ action_endpoint: { url: 'http://x/webhook' } })).to.equal('http://x/webhook');
    expect(
      actionServerUrl({ action_endpoint: { url: 'http://x/webhook', actions_module: 'actions' } }),
    ).to.equal(undefined);
    expect(actionServerUrl({ action_endpoint: null })).to.equal(undefined);
  });
});
