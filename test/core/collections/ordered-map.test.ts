import { expect } from 'chai';
import fc from 'fast-check';
import { OrderedMap } from '../../../src/core/collections/ordered-map.js';

type Operation =
  | { readonly kind: 'set'; readonly key: number; readonly value: number }
  | { readonly kind: 'setNewest'; readonly key: number; readonly value: number }
  | { readonly kind: 'touch'; readonly key: number }
  | { readonly kind: 'delete'; readonly key: number }
  | { readonly kind: 'deleteOldest' }
  | { readonly kind: 'deleteFirstAbove'; readonly threshold: number }
  | { readonly kind: 'clear' };

/** the reference: an array of [key, value] in order, oldest first */
function applyToModel(model: [number, number][], op: Operation): [number, number][] {
  const without = (key: number) => model.filter(([k]) => k !== key);
  const index = 'key' in op ? model.findIndex(([k]) => k === op.key) : -1;
  switch (op.kind) {
    case 'set':
      if (index < 0) return [...model, [op.key, op.value]];
      return model.map(([k, v]) => (k === op.key ? [k, op.value] : [k, v]));
    case 'setNewest':
      return [...without(op.key), [op.key, op.value]];
    case 'touch':
      return index < 0 ? model : [...without(op.key), model[index] as [number, number]];
    case 'delete':
      return without(op.key);
    case 'deleteOldest':
      return model.slice(1);
    case 'deleteFirstAbove': {
      const first = model.findIndex(([, v]) => v > op.threshold);
      return first < 0 ? model : model.filter((_, at) => at !== first);
    }
    case 'clear':
      return [];
  }
}

function applyToMap(map: OrderedMap<number, number>, op: Operation): void {
  switch (op.kind) {
    case 'set':
      return map.set(op.key, op.value);
    case 'setNewest':
      return map.setNewest(op.key, op.value);
    case 'touch':
      map.touch(op.key);
      return;
    case 'delete':
      map.delete(op.key);
      return;
    case 'deleteOldest': {
      const oldest = map.oldest();
      if (oldest) map.delete(oldest[0]);
      return;
    }
    case 'deleteFirstAbove': {
      const found = map.find((value) => value > op.threshold);
      if (found) map.delete(found[0]);
      return;
    }
    case 'clear':
      return map.clear();
  }
}

const key = fc.integer({ min: 0, max: 40 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant('setNewest' as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant('touch' as const), key }),
  fc.record({ kind: fc.constant('delete' as const), key }),
  fc.constant({ kind: 'deleteOldest' as const }),
  fc.record({ kind: fc.constant('deleteFirstAbove' as const), threshold: fc.integer() }),
  fc.constant({ kind: 'clear' as const }),
);

describe('OrderedMap', () => {
  it('holds the same entries in the same order as a list kept by hand, whatever the operations', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 600 }), (operations) => {
        const map = new OrderedMap<number, number>();
        let model: [number, number][] = [];
        for (const op of operations) {
          applyToMap(map, op);
          model = applyToModel(model, op);
          expect(map.size).to.equal(model.length);
          expect(map.oldest()).to.deep.equal(model[0]);
        }
        expect([...map.entries()]).to.deep.equal(model);
        expect([...map.keys()]).to.deep.equal(model.map(([k]) => k));
        expect([...map.values()]).to.deep.equal(model.map(([, v]) => v));
        for (const [k, v] of model) {
          expect(map.has(k)).to.equal(true);
          expect(map.get(k)).to.equal(v);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('lets a loop delete the entries it visits, as a Map does', () => {
    const map = new OrderedMap<string, number>();
    for (let i = 0; i < 200; i += 1) map.set(`k${i}`, i);
    const visited: number[] = [];
    for (const [k, v] of map) {
      visited.push(v);
      if (v % 2 === 0) map.delete(k);
      if (v === 10) map.delete('k11');
    }
    expect(visited).to.have.length(199);
    expect(visited).not.to.include(11);
    expect(map.size).to.equal(99);
    expect(map.oldest()).to.deep.equal(['k1', 1]);
  });

  it('keeps the cost of finding the oldest entry flat when used as a queue of 100,000', () => {
    // the defect this replaces: a Map used as a queue walked its deleted entries to find the first live one
    const map = new OrderedMap<number, number>();
    for (let i = 0; i < 100_000; i += 1) map.set(i, i);
    for (let i = 100_000; i < 300_000; i += 1) {
      const oldest = map.oldest();
      if (oldest) map.delete(oldest[0]);
      map.set(i, i);
    }
    expect(map.size).to.equal(100_000);
    expect(map.oldest()).to.deep.equal([200_000, 200_000]);
    // the order array never holds more than twice the live entries plus the compaction slack
    const order = (map as unknown as { order: unknown[]; head: number }).order;
    expect(order.length).to.be.at.most(2 * 100_000 + 64);
  });

  it('starts a scan at the first live record after the keys ahead of it were touched (least recently used use)', () => {
    const map = new OrderedMap<number, string>();
    for (let i = 0; i < 1000; i += 1) map.set(i, `v${i}`);
    // the first 900 are used again: their old records at the front are stale
    for (let i = 0; i < 900; i += 1) map.touch(i);
    const internals = map as unknown as { order: { key: number }[]; head: number };
    const first = map.entries().next();
    expect(first.value).to.deep.equal([900, 'v900']);
    expect(internals.order[internals.head]?.key).to.equal(900);
  });

  it('passes the records of entries deleted behind the ones a search skips only once (eviction at a cap)', () => {
    const map = new OrderedMap<number, string>();
    // ten entries a search must skip (contexts waiting for input), then the idle ones
    for (let i = 0; i < 10; i += 1) map.set(i, 'held');
    for (let i = 10; i < 1000; i += 1) map.set(i, 'idle');
    const internals = map as unknown as { order: { key: number }[]; head: number };
    for (let evicted = 10; evicted < 500; evicted += 1) {
      const found = map.find((value) => value === 'idle');
      expect(found?.[0]).to.equal(evicted);
      // what the next search reads first: the ten skipped ones, right before the one found
      const ahead = internals.order.slice(internals.head, internals.head + 11).map((record) => record.key);
      expect(ahead).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, evicted]);
      map.delete(evicted);
    }
    expect([...map.keys()].slice(0, 11)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 500]);
  });

  it('leaves an iteration under way visiting every entry once when a search runs inside it', () => {
    const map = new OrderedMap<number, string>();
    for (let i = 0; i < 20; i += 1) map.set(i, i % 2 === 0 ? 'held' : 'idle');
    for (let i = 1; i < 20; i += 4) map.delete(i);
    const visited: number[] = [];
    for (const [key] of map) {
      visited.push(key);
      map.find((value) => value === 'idle');
    }
    expect(visited).to.deep.equal([...map.keys()]);
    expect(new Set(visited).size).to.equal(visited.length);
  });
});
