import { expect } from 'chai';
import { isRunnableAction } from '../../../src/core/domain/actions.js';
import { isBuiltInAction } from '../../../src/core/domain/built-in-actions.js';
import { isActionModuleFile, listNames } from '../../../src/core/domain/custom-actions.js';
import type { ActionDeclaration, Domain, ResponseTemplate } from '../../../src/core/domain/types.js';

describe('action modules and action names', () => {
  it('loads actions from TypeScript and JavaScript modules only', () => {
    for (const name of ['actions.ts', 'bank.mts', 'index.js', 'esm.mjs'])
      expect(isActionModuleFile(name), name).to.equal(true);
    for (const name of ['types.d.ts', 'bank.test.ts', 'data.json', 'notes.tsx', 'README.md', 'ts'])
      expect(isActionModuleFile(name), name).to.equal(false);
  });

  it('lists names in full up to eight by default, then counts the rest', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    expect(listNames(names.slice(0, 8))).to.equal('a, b, c, d, e, f, g, h');
    expect(listNames(names)).to.equal('a, b, c, d, e, f, g, h and 2 more');
    expect(listNames([])).to.equal('');
  });

  it("knows Rasa's default actions as built-ins, and nothing else", () => {
    for (const name of ['action_listen', 'action_restart', 'action_session_start', 'action_cancel_flow'])
      expect(isBuiltInAction(name), name).to.equal(true);
    for (const name of ['action_check_balance', 'utter_greet', '', 'action_'])
      expect(isBuiltInAction(name), name).to.equal(false);
  });

  it('runs a response, a declared action or a built-in, and nothing else', () => {
    const domain = {
      responses: new Map([['utter_greet', {} as ResponseTemplate]]),
      actions: new Map([['action_check', {} as ActionDeclaration]]),
    } as Pick<Domain, 'responses' | 'actions'> as Domain;
    for (const name of ['utter_greet', 'action_check', 'action_listen'])
      expect(isRunnableAction(domain, name), name).to.equal(true);
    for (const name of ['utter_bye', 'action_other'])
      expect(isRunnableAction(domain, name), name).to.equal(false);
  });
});
