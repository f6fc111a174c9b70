import { expect } from 'chai';
import { FlowList } from '../../../src/core/flows/flow-list.js';
import type { Flow, Step } from '../../../src/core/flows/types.js';

function noop(id: string): Step {
  return { kind: 'noop', id, hasCustomId: true, next: { kind: 'end' }, metadata: {} };
}

function flow(id: string, steps: readonly Step[] = []): Flow {
  return {
    id,
    name: id,
    description: '',
    guard: undefined,
    alwaysIncludeInPrompt: false,
    nluTriggers: [],
    persistedSlots: [],
    runPatternCompleted: true,
    steps,
    firstStepId: steps[0]?.id,
    metadata: {},
    isDefault: false,
  };
}

describe('the flow list', () => {
  const list = new FlowList([
    flow('transfer_money', [noop('ask'), noop('confirm')]),
    flow('pattern_cancel_flow'),
    flow('explain_pattern_matching'),
  ]);

  it('finds a step by flow and step id, and nothing for an unknown flow or step', () => {
    expect(list.step('transfer_money', 'confirm')?.id).to.equal('confirm');
    expect(list.step('transfer_money', 'nowhere')).to.equal(undefined);
    expect(list.step('no_such_flow', 'confirm')).to.equal(undefined);
  });

  it("lists as user flows all but the patterns (ids starting with 'pattern_')", () => {
    expect(list.userFlows.map((item) => item.id)).to.deep.equal([
      'transfer_money',
      'explain_pattern_matching',
    ]);
  });
});
