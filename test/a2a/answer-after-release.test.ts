/**
 * A send's answer goes once its context is free again: a caller who sends the next message as soon as
 * it has the answer, through any replica, must not find the context busy with the turn it was answered.
 */
import { expect } from 'chai';
import { MemoryTaskStore } from '../../src/a2a/tasks/memory/memory-task-store.js';
import type { TaskStore } from '../../src/a2a/tasks/task-store.js';
import { FINISH, START, T0, message, setup } from './semantic-support.js';

/** a store whose releases take `delayMs`, recording when each ended */
function slowReleases(delayMs: number): { store: TaskStore; released: string[] } {
  const inner = new MemoryTaskStore({ replayTtlSeconds: 60, now: () => T0 });
  const released: string[] = [];
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      if (property === 'releaseContext')
        return async (key: string, holder: string) => {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          await target.releaseContext(key, holder);
          released.push(key);
        };
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, released };
}

describe('A2A answers after the context is released', () => {
  it('answers a blocking send once the claim is released, so that the next message finds the context free', async () => {
    const { store, released } = slowReleases(150);
    const { handler } = await setup({}, { store });
    const first = await handler.sendMessage({ message: message(START, { contextId: 'next-at-once' }), caller: '' });
    const answered = await first.done;
    expect(answered.status.state).to.equal('input-required');
    expect(released, 'released before the answer').to.have.length(1);
    // the caller's next message, sent the moment the answer arrived
    const second = await handler.sendMessage({
      message: message(FINISH, { contextId: 'next-at-once', taskId: answered.id }),
      caller: '',
    });
    expect((await second.done).status.state).to.equal('completed');
  });
});
