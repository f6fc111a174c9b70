import { expect } from 'chai';
import { mergedCopy, shallowCopy, withKey } from '../../../src/core/events/json-value.js';
import { stampEvent } from '../../../src/core/events/stamp.js';
import type { Event } from '../../../src/core/events/index.js';

describe('stampEvent and the copies the engine makes', () => {
  it('stamps a copy with the time unless the event has one, keys in spread order', () => {
    const unstamped = { event: 'slot', name: 'amount', value: 3 } as const;
    const stamped = stampEvent(unstamped, 42);
    expect(stamped).to.not.equal(unstamped);
    expect(Object.keys(stamped)).to.deep.equal(['event', 'name', 'value', 'timestamp']);
    expect(stamped.timestamp).to.equal(42);
    const early = { event: 'pause', timestamp: 7 } as Event;
    expect(stampEvent(early, 42)).to.deep.equal({ event: 'pause', timestamp: 7 });
  });

  it('keeps an own `__proto__` key an ordinary member instead of setting the prototype', () => {
    const parsed = JSON.parse('{"event": "pause", "__proto__": {"polluted": true}}') as Event;
    const stamped = stampEvent(parsed, 1);
    expect(Object.getPrototypeOf(stamped)).to.equal(Object.prototype);
    expect(Object.hasOwn(stamped, '__proto__')).to.equal(true);
    const frame = JSON.parse('{"__proto__": {"polluted": true}, "step_id": "a"}') as Record<string, unknown>;
    for (const copy of [shallowCopy(frame), mergedCopy({}, frame), withKey(frame, 'step_id', 'b')]) {
      expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
      expect(Object.hasOwn(copy, '__proto__')).to.equal(true);
    }
  });
});
