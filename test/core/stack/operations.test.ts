import { expect } from 'chai';
import type { Frame, PatternFrame, UserFlowFrame, UserFrameType } from '../../../src/core/stack/frames.js';
import {
  currentContext,
  moveFramesToTop,
  topUserFrame,
  topUserFrameIndex,
} from '../../../src/core/stack/operations.js';

const flow = (id: string, frameType: UserFrameType = 'regular'): UserFlowFrame => ({
  frame_id: `frame_${id}`,
  flow_id: id,
  step_id: `${id}_0`,
  type: 'flow',
  frame_type: frameType,
});

const pattern = (type: `pattern_${string}`, fields: Record<string, unknown> = {}): PatternFrame => ({
  frame_id: `frame_${type}`,
  flow_id: type,
  step_id: 'START',
  type,
  ...fields,
});

const frameTypes = (stack: readonly Frame[]): string[] =>
  stack.map((frame) => `${frame.flow_id}:${frame.type === 'flow' ? frame.frame_type : 'pattern'}`);

describe('dialogue stack operations', () => {
  describe('topUserFrameIndex / topUserFrame', () => {
    const stack = [flow('transfer'), flow('check_balance', 'call'), pattern('pattern_collect_information')];

    it('skips a called flow on top and returns its caller, as Rasa does by default', () => {
      expect(topUserFrameIndex(stack)).to.equal(0);
      expect(topUserFrame(stack)?.flow_id).to.equal('transfer');
    });

    it('returns the called flow when asked to include call frames', () => {
      expect(topUserFrameIndex(stack, { includeCallFrames: true })).to.equal(1);
      expect(topUserFrame(stack, { includeCallFrames: true })?.flow_id).to.equal('check_balance');
    });

    it('is -1 / undefined on a stack with only patterns', () => {
      expect(topUserFrameIndex([pattern('pattern_chitchat')])).to.equal(-1);
      expect(topUserFrame([pattern('pattern_chitchat')])).to.equal(undefined);
    });
  });

  describe('moveFramesToTop', () => {
    it('moves the frames to the top, makes the regular frames interrupts and the bottom user frame regular', () => {
      const stack = [flow('a'), flow('b', 'interrupt'), pattern('pattern_chitchat'), flow('c', 'interrupt')];
      const moved = moveFramesToTop(stack, new Set(['frame_a']));
      expect(frameTypes(moved)).to.deep.equal([
        'b:regular',
        'pattern_chitchat:pattern',
        'c:interrupt',
        'a:interrupt',
      ]);
    });

    it('keeps a link frame as it is; the bottom-most interrupt becomes the regular frame', () => {
      const moved = moveFramesToTop([flow('a'), flow('b', 'link')], new Set(['frame_a']));
      expect(frameTypes(moved)).to.deep.equal(['b:link', 'a:regular']);
    });
  });

  describe('currentContext', () => {
    it("merges the frame below into a collect pattern's context, the collect frame's fields winning", () => {
      const stack = [
        pattern('pattern_clarification', { names: ['a', 'b'], collect: 'below' }),
        pattern('pattern_collect_information', { collect: 'confirm' }),
      ];
      expect(currentContext(stack)).to.include({
        type: 'pattern_collect_information',
        collect: 'confirm',
      });
      expect(currentContext(stack)['names']).to.deep.equal(['a', 'b']);
    });

    it('gives any other top frame only its own fields', () => {
      const stack = [pattern('pattern_clarification', { names: ['a', 'b'] }), pattern('pattern_chitchat')];
      expect(currentContext(stack)).to.deep.equal(pattern('pattern_chitchat'));
    });

    it('is empty on an empty stack', () => {
      expect(currentContext([])).to.deep.equal({});
    });
  });
});
