import { expect } from 'chai';
import type { Frame } from '../../../src/core/stack/frames.js';
import { framesToCancel } from '../../../src/core/stack/cancel.js';

const flow = (id: string, frameType: 'regular' | 'interrupt' | 'call'): Frame => ({
  frame_id: `frame_${id}`,
  flow_id: id,
  step_id: `${id}_0`,
  type: 'flow',
  frame_type: frameType,
});

const ids = (frames: readonly Frame[]): string[] => frames.map((frame) => frame.frame_id);

describe('framesToCancel', () => {
  it('winds down from the top to the active flow and leaves the flow it interrupted', () => {
    const stack: Frame[] = [
      flow('transfer', 'regular'),
      flow('check_balance', 'interrupt'),
      {
        frame_id: 'frame_collect',
        flow_id: 'pattern_collect_information',
        step_id: 'START',
        type: 'pattern_collect_information',
      },
    ];
    expect(ids(framesToCancel(stack))).to.deep.equal(['frame_collect', 'frame_check_balance']);
  });

  it('cancels the caller too when the active flow was reached through call', () => {
    const stack = [flow('transfer', 'regular'), flow('verify', 'interrupt'), flow('lookup', 'call')];
    expect(ids(framesToCancel(stack))).to.deep.equal(['frame_lookup', 'frame_verify']);
  });
});
