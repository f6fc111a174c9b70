import { expect } from 'chai';
import { applyStackUpdate, stackUpdateEvent } from '../../../src/core/events/index.js';
import { collectFrame, flowFrame } from './builders.js';

const bottom = flowFrame('F1', 'transfer_money', 'ask_amount');
const top = collectFrame('F2', 'amount');

describe('stack update events', () => {
  it('writes the patch as a JSON string with the given timestamp', () => {
    const event = stackUpdateEvent([], [bottom], 12.5);
    expect(event).to.deep.equal({
      event: 'stack',
      update: JSON.stringify([{ op: 'add', path: '/0', value: bottom }]),
      timestamp: 12.5,
    });
  });

  it('leaves the timestamp to the runtime when none is given', () => {
    const event = stackUpdateEvent([bottom], [bottom, top]);
    expect(event).to.not.have.property('timestamp');
    expect(event?.event).to.equal('stack');
  });

  it('returns undefined when nothing changed', () => {
    expect(stackUpdateEvent([bottom, top], [{ ...bottom }, { ...top }], 1)).to.equal(undefined);
  });

  it('applies an update written by stackUpdateEvent', () => {
    const after = [{ ...bottom, step_id: 'ask_recipient' }, top];
    const event = stackUpdateEvent([bottom], after, 1);
    expect(applyStackUpdate([bottom], event?.update ?? '')).to.deep.equal({ ok: true, stack: after });
  });

  it('applies a patch in the form Rasa writes (python jsonpatch)', () => {
    const update = '[{"op": "replace", "path": "/0/step_id", "value": "x"}]';
    const result = applyStackUpdate([bottom], update);
    expect(result).to.deep.equal({ ok: true, stack: [{ ...bottom, step_id: 'x' }] });
  });

  it('leaves the stack unchanged and reports an update that is not JSON', () => {
    const stack = [bottom];
    const result = applyStackUpdate(stack, '[{"op": ');
    expect(result.ok).to.equal(false);
    expect(result.stack).to.equal(stack);
    expect(!result.ok && result.error).to.match(/not valid JSON/);
  });

  it('leaves the stack unchanged and reports a patch that does not apply', () => {
    const result = applyStackUpdate([bottom], '[{"op": "remove", "path": "/3"}]');
    expect(result).to.deep.include({ ok: false, stack: [bottom] });
  });

  it('rejects a result that is not a stack of known frames', () => {
    const notAList = applyStackUpdate([bottom], '[{"op": "replace", "path": "", "value": {}}]');
    const noFrameId = applyStackUpdate([], '[{"op": "add", "path": "/0", "value": {"type": "flow"}}]');
    const unknownType = applyStackUpdate(
      [],
      '[{"op":"add","path":"/0","value":{"frame_id":"a","flow_id":"f","step_id":"s","type":"agent"}}]',
    );
    for (const result of [notAList, noFrameId, unknownType]) expect(result.ok).to.equal(false);
    expect(!unknownType.ok && unknownType.error).to.match(/unknown type "agent"/);
  });

  it('says which frame is broken and how', () => {
    const errorOf = (value: unknown): string => {
      const result = applyStackUpdate([bottom], JSON.stringify([{ op: 'add', path: '/1', value }]));
      return result.ok ? 'applied' : result.error;
    };
    expect(errorOf('pattern_x')).to.equal('stack frame 1 is not an object');
    expect(errorOf({ ...top, flow_id: 3 })).to.equal('stack frame 1 has no string "flow_id"');
    expect(errorOf({ ...top, step_id: undefined })).to.equal('stack frame 1 has no string "step_id"');
    expect(errorOf({ ...bottom, frame_id: 'F9', frame_type: 'detour' })).to.equal(
      'stack frame 1 has an unknown "frame_type"',
    );
    const notAList = applyStackUpdate([bottom], '[{"op": "replace", "path": "", "value": {}}]');
    expect(!notAList.ok && notAList.error).to.equal('the patched stack is not a list');
  });

  it('applies the update the engine just wrote to another stack or another update as written', () => {
    const pushed = stackUpdateEvent([bottom], [bottom, top], 1);
    const other = flowFrame('F7', 'check_balance', 'START');
    // the same update text against another stack
    expect(applyStackUpdate([other], pushed?.update ?? '')).to.deep.equal({ ok: true, stack: [other, top] });
    // another update against the same stack object
    const stack = [bottom];
    stackUpdateEvent(stack, [bottom, top], 1);
    const replaced = JSON.stringify([{ op: 'replace', path: '/0/step_id', value: 'ask_recipient' }]);
    expect(applyStackUpdate(stack, replaced)).to.deep.equal({
      ok: true,
      stack: [{ ...bottom, step_id: 'ask_recipient' }],
    });
  });
});
