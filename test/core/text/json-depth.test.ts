import { expect } from 'chai';
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../../../src/core/text/json-depth.js';

/** `levels` arrays (or objects) inside each other */
function nested(levels: number, kind: 'array' | 'object' = 'array'): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level += 1) value = kind === 'array' ? [value] : { child: value };
  return value;
}

describe('how deep a request body nests', () => {
  it('counts scalars as no level at all', () => {
    for (const value of ['text', 42, null, undefined, true])
      expect(nestedDeeperThan(value, 0)).to.equal(false);
  });

  it('counts each array or object as one level', () => {
    expect(nestedDeeperThan([], 0)).to.equal(true);
    expect(nestedDeeperThan({}, 1)).to.equal(false);
    expect(nestedDeeperThan(nested(3), 3)).to.equal(false);
    expect(nestedDeeperThan(nested(3), 2)).to.equal(true);
    expect(nestedDeeperThan(nested(3, 'object'), 3)).to.equal(false);
    expect(nestedDeeperThan(nested(4, 'object'), 3)).to.equal(true);
  });

  it('finds the deep branch among shallow ones', () => {
    const body = { text: 'hi', metadata: { a: 1, b: [1, 2] }, deep: { x: nested(4) } };
    expect(nestedDeeperThan(body, 5)).to.equal(true);
    expect(nestedDeeperThan(body, 6)).to.equal(false);
    expect(nestedDeeperThan([1, 'two', nested(2, 'object')], 2)).to.equal(true);
  });

  it('allows 64 levels and reads a body far deeper without overflowing the stack', () => {
    expect(MAX_BODY_DEPTH).to.equal(64);
    expect(nestedDeeperThan(nested(64), MAX_BODY_DEPTH)).to.equal(false);
    expect(nestedDeeperThan(nested(65), MAX_BODY_DEPTH)).to.equal(true);
    expect(nestedDeeperThan(JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)), MAX_BODY_DEPTH)).to.equal(
      true,
    );
  });
});
