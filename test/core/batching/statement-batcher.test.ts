import { expect } from 'chai';
import { StatementBatcher } from '../../../src/core/batching/statement-batcher.js';

interface Call {
  readonly kind: 'alone' | 'together';
  readonly requests: readonly string[];
  finish(error?: unknown): void;
}

/** statements that answer only when the test says so, each request's answer being its upper case */
function controlled(retryAlone = (error: unknown) => (error as Error).message === 'collision') {
  const calls: Call[] = [];
  const statements = {
    alone: (request: string) =>
      new Promise<string>((resolve, reject) => {
        calls.push({
          kind: 'alone',
          requests: [request],
          finish: (error) => (error ? reject(error) : resolve(request.toUpperCase())),
        });
      }),
    together: (requests: readonly string[]) =>
      new Promise<string[]>((resolve, reject) => {
        calls.push({
          kind: 'together',
          requests,
          finish: (error) => (error ? reject(error) : resolve(requests.map((r) => r.toUpperCase()))),
        });
      }),
    retryAlone,
  };
  return { calls, statements };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('StatementBatcher', () => {
  it('sends up to maxInFlight at once and the requests that came meanwhile together, each answered', async () => {
    const { calls, statements } = controlled();
    const batcher = new StatementBatcher(statements, { maxInFlight: 2, maxBatch: 3 });
    const answers = ['a', 'b', 'c', 'd', 'e', 'f'].map((r) => batcher.run(r, r));
    expect(calls.map((c) => [c.kind, ...c.requests])).to.deep.equal([
      ['alone', 'a'],
      ['alone', 'b'],
    ]);
    calls[0]?.finish();
    await tick();
    expect(calls[2]).to.include({ kind: 'together' });
    expect(calls[2]?.requests).to.deep.equal(['c', 'd', 'e']);
    calls[1]?.finish();
    await tick();
    expect(calls[3]?.requests).to.deep.equal(['f']);
    calls[2]?.finish();
    calls[3]?.finish();
    expect(await Promise.all(answers)).to.deep.equal(['A', 'B', 'C', 'D', 'E', 'F']);
  });

  it('closes a batch before its weight would pass maxWeight; a request heavier than that goes alone', async () => {
    const { calls, statements } = controlled();
    // a request weighs its length: 'x' 1, 'heavy-one' 9
    const weighed = { ...statements, weight: (request: string) => request.length };
    const batcher = new StatementBatcher(weighed, { maxInFlight: 1, maxBatch: 10, maxWeight: 4 });
    const answers = ['a', 'bb', 'cc', 'heavy-one', 'd', 'e'].map((r) => batcher.run(r, r));
    const sent = async (): Promise<string[]> => {
      const call = calls.at(-1) as Call;
      call.finish();
      await tick();
      return [...(calls.at(-1) as Call).requests];
    };
    expect(calls.map((c) => c.requests)).to.deep.equal([['a']]);
    expect(await sent()).to.deep.equal(['bb', 'cc']);
    expect(await sent()).to.deep.equal(['heavy-one']);
    expect(await sent()).to.deep.equal(['d', 'e']);
    (calls.at(-1) as Call).finish();
    expect(await Promise.all(answers)).to.deep.equal(['A', 'BB', 'CC', 'HEAVY-ONE', 'D', 'E']);
  });

  it('holds back a conversation whose request is on its way, and keeps its requests in order', async () => {
    const { calls, statements } = controlled();
    const batcher = new StatementBatcher(statements, { maxInFlight: 2, maxBatch: 8 });
    const first = batcher.run('x', 'x1');
    const second = batcher.run('x', 'x2');
    const other = batcher.run('y', 'y1');
    // x2 waits for x1 even though a second statement may go: y1 goes instead
    expect(calls.map((c) => c.requests)).to.deep.equal([['x1'], ['y1']]);
    calls[0]?.finish();
    await tick();
    expect(calls[2]?.requests).to.deep.equal(['x2']);
    calls[1]?.finish();
    calls[2]?.finish();
    expect(await Promise.all([first, second, other])).to.deep.equal(['X1', 'X2', 'Y1']);
  });

  it('runs a failed batch again request by request when told to, so only the failing one fails', async () => {
    const { calls, statements } = controlled();
    const batcher = new StatementBatcher(statements, { maxInFlight: 1, maxBatch: 8 });
    const outcomes = ['a', 'b', 'c', 'd'].map((r) => batcher.run(r, r));
    calls[0]?.finish();
    await tick();
    calls[1]?.finish(new Error('collision'));
    await tick();
    const retried = calls.slice(2);
    expect(retried.map((c) => [c.kind, ...c.requests])).to.deep.equal([
      ['alone', 'b'],
      ['alone', 'c'],
      ['alone', 'd'],
    ]);
    retried[0]?.finish();
    retried[1]?.finish(new Error('collision'));
    retried[2]?.finish();
    const settled = await Promise.allSettled(outcomes);
    expect(settled.map((s) => s.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  });

  it('fails every request of a batch with any other error, and goes on with the next ones', async () => {
    const { calls, statements } = controlled();
    const batcher = new StatementBatcher(statements, { maxInFlight: 1, maxBatch: 8 });
    const outcomes = ['a', 'b', 'c'].map((r) => batcher.run(r, r));
    calls[0]?.finish();
    await tick();
    const lost = new Error('connection lost');
    calls[1]?.finish(lost);
    const settled = await Promise.allSettled(outcomes);
    expect(settled.map((s) => (s.status === 'rejected' ? s.reason : s.value))).to.deep.equal([
      'A',
      lost,
      lost,
    ]);
    const later = batcher.run('d', 'd');
    await tick();
    calls.at(-1)?.finish();
    expect(await later).to.equal('D');
  });
});
