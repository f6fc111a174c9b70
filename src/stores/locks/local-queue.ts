/**
 * First-come, first-served turns per conversation inside one process, with a bounded wait. The shared
 * lock stores queue here first, so that only the head of a conversation's local queue holds or waits
 * for the shared lock: order is kept within the process, and one busy conversation costs one
 * database connection or Redis poller, not one per waiting turn.
 */
import { AppError } from '../../core/errors.js';

interface Waiter {
  readonly admit: () => void;
  readonly timer?: ReturnType<typeof setTimeout>;
}

export class LocalQueue {
  /** per conversation: the holder first, then the waiters in arrival order */
  private readonly queues = new Map<string, Waiter[]>();

  /** Resolves with a release function once every earlier turn of the conversation has released. */
  acquire(conversationId: string, waitMs: number): Promise<() => void> {
    const queue = this.queues.get(conversationId);
    if (!queue) {
      const holder: Waiter = { admit: () => undefined };
      this.queues.set(conversationId, [holder]);
      return Promise.resolve(this.releaser(conversationId, holder));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(waiter.timer);
          resolve(this.releaser(conversationId, waiter));
        },
        timer: setTimeout(() => {
          const index = queue.indexOf(waiter);
          if (index > 0) queue.splice(index, 1);
          reject(lockTimeout(conversationId, waitMs, 'earlier turns of this process'));
        }, waitMs),
      };
      queue.push(waiter);
    });
  }

  private releaser(conversationId: string, holder: Waiter): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const queue = this.queues.get(conversationId);
      if (!queue || queue[0] !== holder) return;
      queue.shift();
      const next = queue[0];
      if (next) next.admit();
      else this.queues.delete(conversationId);
    };
  }
}

export function lockTimeout(conversationId: string, waitMs: number, behind: string): AppError {
  return new AppError({
    code: 'LOCK_TIMEOUT',
    message: `Conversation '${conversationId}' stayed locked by ${behind} for ${Math.round(waitMs)} ms; the turn gave up waiting.`,
    details: { conversationId, waitMs },
  });
}
