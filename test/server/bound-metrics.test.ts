import { expect } from 'chai';
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { BoundCounter, BoundHistogram } from '../../src/server/bound-metrics.js';

const BUCKETS = [0.001, 0.01, 0.1, 1, 10];

describe('bound metrics', () => {
  it('write the exposition prom-client writes for the same histogram observations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('rest', 'a2a'), fc.double({ min: 0, max: 20, noNaN: true }))),
        async (observations) => {
          const theirs = new Registry();
          const ours = new Registry();
          const reference = new Histogram({
            name: 'turn_seconds',
            help: 'Turns',
            labelNames: ['channel'],
            buckets: BUCKETS,
            registers: [theirs],
          });
          const bound = new BoundHistogram({ name: 'turn_seconds', help: 'Turns', registry: ours }, BUCKETS);
          for (const [channel, value] of observations) {
            reference.labels({ channel }).observe(value);
            bound.bind(channel, { channel }).observe(value);
          }
          expect(await ours.metrics()).to.equal(await theirs.metrics());
        },
      ),
      { numRuns: 50 },
    );
  });

  it('write the exposition prom-client writes for the same counter increments', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const reference = new Counter({
      name: 'calls_total',
      help: 'Calls',
      labelNames: ['kind', 'outcome'],
      registers: [theirs],
    });
    const bound = new BoundCounter({ name: 'calls_total', help: 'Calls', registry: ours });
    for (const [kind, outcome, amount] of [
      ['custom', 'ok', 1],
      ['custom', 'error', 1],
      ['custom', 'ok', 3],
      ['builtin', 'ok', 1],
    ] as const) {
      reference.labels({ kind, outcome }).inc(amount);
      bound.bind(`${kind}\n${outcome}`, { kind, outcome }).inc(amount);
    }
    expect(await ours.metrics()).to.equal(await theirs.metrics());
    expect(await ours.metrics()).to.contain('calls_total{kind="custom",outcome="ok"} 4');
  });

  it('ignore values prom-client would refuse, and forget every series on reset', async () => {
    const registry = new Registry();
    const histogram = new BoundHistogram({ name: 'h', help: 'H', registry }, BUCKETS);
    const counter = new BoundCounter({ name: 'c', help: 'C', registry });
    histogram.bind('x', { x: 'x' }).observe(Number.NaN);
    histogram.bind('x', { x: 'x' }).observe(0.5);
    counter.bind('x', { x: 'x' }).inc(-1);
    counter.bind('x', { x: 'x' }).inc();
    const text = await registry.metrics();
    expect(text).to.contain('h_count{x="x"} 1');
    expect(text).to.contain('h_bucket{le="1",x="x"} 1');
    expect(text).to.contain('h_bucket{le="0.1",x="x"} 0');
    expect(text).to.contain('c{x="x"} 1');
    registry.resetMetrics();
    expect(await registry.metrics()).not.to.contain('x="x"');
  });
});
