import { expect } from 'chai';
import type { Frame, Stack } from '../../../src/core/stack/frames.js';
import { applyPatch, diffPatch, stackPatch } from '../../../src/core/events/index.js';
import { collectFrame, deepFreeze, flowFrame, seededRandom } from './builders.js';

type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

let nextFrameId = 0;

function randomFrame(random: Random): Frame {
  nextFrameId += 1;
  const id = `F${nextFrameId}`;
  if (random() < 0.5)
    return flowFrame(id, pick(random, ['transfer', 'check/balance', 'a~b']), `s${nextFrameId}`);
  return {
    ...collectFrame(id, pick(random, ['amount', 'recipient'])),
    extra: { n: random() < 0.5 ? 1 : [1, 2] },
  };
}

function randomStack(random: Random): Stack {
  return Array.from({ length: Math.floor(random() * 5) }, () => randomFrame(random));
}

/** One of the stack changes the engine makes: push, pop, step change, cancel in the middle, context edits. */
function mutateStack(random: Random, stack: Stack): Stack {
  const index = Math.floor(random() * stack.length);
  const frame = stack[index];
  switch (Math.floor(random() * 7)) {
    case 0:
      return [...stack, randomFrame(random)];
    case 1:
      return stack.slice(0, -1);
    case 2:
      return frame ? stack.map((f, i) => (i === index ? { ...f, step_id: `next_${i}` } : f)) : stack;
    case 3:
      return stack.filter((_, i) => i !== index);
    case 4:
      return frame ? stack.map((f, i) => (i === index ? ({ ...f, added: 'x/y~z' } as Frame) : f)) : stack;
    case 5:
      return frame ? stack.map((f, i) => (i === index ? randomFrame(random) : f)) : stack;
    default:
      return [randomFrame(random), ...stack];
  }
}

function randomJson(random: Random, depth: number): unknown {
  const kind = Math.floor(random() * (depth > 2 ? 4 : 6));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return Math.floor(random() * 10);
    case 3:
      return pick(random, ['', 'a', '~', '/']);
    case 4:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 4); i > 0; i -= 1) {
        object[pick(random, ['a', 'b', 'c/d', 'e~f', ''])] = randomJson(random, depth + 1);
      }
      return object;
    }
  }
}

describe('JSON Patch diff', () => {
  it('produces no operations for equal documents', () => {
    expect(diffPatch({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).to.deep.equal([]);
  });

  it('replaces the fields of a frame that keeps its position', () => {
    const before = [flowFrame('F1', 'transfer', 'ask_amount')];
    const after = [flowFrame('F1', 'transfer', 'ask_recipient')];
    expect(stackPatch(before, after)).to.deep.equal([
      { op: 'replace', path: '/0/step_id', value: 'ask_recipient' },
    ]);
  });

  it('adds a pushed frame at the end and removes a popped one from the end', () => {
    const bottom = flowFrame('F1', 'transfer', 'ask_amount');
    const top = collectFrame('F2', 'amount');
    expect(stackPatch([bottom], [bottom, top])).to.deep.equal([{ op: 'add', path: '/1', value: top }]);
    expect(stackPatch([bottom, top], [bottom])).to.deep.equal([{ op: 'remove', path: '/1' }]);
  });

  it('replaces a frame whole when another frame takes its position', () => {
    const before = [flowFrame('F1', 'a', 's'), flowFrame('F2', 'b', 's')];
    const after = [flowFrame('F2', 'b', 's')];
    const patch = stackPatch(before, after);
    expect(patch.some((op) => op.path === '/0/frame_id')).to.equal(false);
    expect(applyPatch(before, patch)).to.deep.equal(after);
  });

  it('treats members whose value is undefined as absent, as JSON does', () => {
    expect(diffPatch({ a: 1, b: undefined }, { a: 1 })).to.deep.equal([]);
    expect(diffPatch({ a: 1 }, { a: 1, b: undefined })).to.deep.equal([]);
    // the JSON of the first document has no "b", so "b" must be added, not replaced
    expect(diffPatch({ a: 1, b: undefined }, { a: 1, b: 2 })).to.deep.equal([
      { op: 'add', path: '/b', value: 2 },
    ]);
  });

  it('escapes member names in paths', () => {
    expect(diffPatch({ 'a/b': 1 }, { 'a/b': 2, '~': 3 })).to.deep.equal([
      { op: 'replace', path: '/a~1b', value: 2 },
      { op: 'add', path: '/~0', value: 3 },
    ]);
  });

  it('patches random pairs of stacks into each other (property)', () => {
    const random = seededRandom(20240611);
    for (let round = 0; round < 500; round += 1) {
      let before = randomStack(random);
      for (let step = 0; step < 5; step += 1) {
        const after = mutateStack(random, mutateStack(random, before));
        const snapshot = JSON.stringify(before);
        const patch = stackPatch(deepFreeze(before), after);
        const roundTripped = JSON.parse(JSON.stringify(patch)) as typeof patch;
        expect(applyPatch(before, roundTripped), `round ${round}.${step}`).to.deep.equal(after);
        expect(JSON.stringify(before)).to.equal(snapshot);
        before = after;
      }
    }
  });

  it('patches random pairs of JSON documents into each other (property)', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 1000; round += 1) {
      const before = deepFreeze(randomJson(random, 0));
      const after = randomJson(random, 0);
      expect(applyPatch(before, diffPatch(before, after)), `round ${round}`).to.deep.equal(after);
    }
  });
});
