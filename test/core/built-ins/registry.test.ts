import { expect } from 'chai';
import { runnableBuiltInActions } from '../../../src/core/built-ins/index.js';
import { BUILT_IN_ACTIONS } from '../../../src/core/domain/built-in-actions.js';

describe('built-in action registry', () => {
  it('every action name validate accepts as built-in runs, and nothing else counts as built-in', () => {
    expect([...runnableBuiltInActions()].sort()).to.deep.equal([...BUILT_IN_ACTIONS].sort());
  });

  it('no built-in is registered twice', () => {
    const names = runnableBuiltInActions();
    expect(new Set(names).size).to.equal(names.length);
  });
});
