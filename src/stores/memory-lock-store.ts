import type { LockStore } from '../core/ports.js';

/** Runs the turns of one conversation one after another within this process. */
export class MemoryLockStore implements LockStore {
  private readonly tails = new Map<string, Promise<unknown>>();

  describe(): string {
    return 'in memory (serialises turns within this process only)';
  }

  async withLock<T>(conversationId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(conversationId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    this.tails.set(conversationId, tail);
    try {
      return await run;
    } finally {
      if (this.tails.get(conversationId) === tail) this.tails.delete(conversationId);
    }
  }
}
