/**
 * The first answer to a messageId sent again: a retry runs nothing and gets what the first send got,
 * from the task store (any process answered it), or, while the first send is still being answered in
 * this process, once that answer is there. The same messageId with another message is refused.
 */
import { invalidParams } from './a2a-error.js';
import type { Task } from './tasks/model.js';
import type { ReplayKey, TaskStore } from './tasks/task-store.js';
import type { SendResult } from './semantic-inputs.js';

export interface ReplayAnswersOptions {
  readonly store: TaskStore;
  readonly now: () => number;
  /** how long a messageId is remembered; 0: not at all */
  readonly ttlMs: number;
}

export class ReplayAnswers {
  private readonly options: ReplayAnswersOptions;
  /** answers still being produced here, by replay key: a retry waits for the first answer */
  private readonly answering = new Map<string, Promise<Task>>();

  constructor(options: ReplayAnswersOptions) {
    this.options = options;
  }

  /** when the entry of a message accepted now expires */
  expiresAt(): number {
    return this.options.now() + this.options.ttlMs;
  }

  /** The first answer to this message, if it was sent before (awaited when still being produced here). */
  async replayed(key: ReplayKey, fingerprint: string, contextId: string): Promise<SendResult | undefined> {
    if (this.options.ttlMs <= 0) return undefined;
    const { store } = this.options;
    const entry = await store.getReplay(key, this.options.now());
    if (!entry) return undefined;
    if (entry.fingerprint !== fingerprint)
      throw invalidParams(
        `messageId ${key.messageId} was already used on context ${contextId} for another message; give each new message a new messageId.`,
        'message.messageId',
      );
    // answered, or still being answered here; a turn whose process died answers with the task as stored
    const task =
      entry.answer ??
      (await this.answering.get(replayKeyOf(key))) ??
      (await store.getTask(entry.taskId))?.task;
    if (!task) return undefined;
    return { task, done: Promise.resolve(task), replayed: true, unsubscribe: () => undefined };
  }

  /** a message's answer being produced here, for retries arriving before it is stored */
  remember(key: ReplayKey, done: Promise<Task>): void {
    const id = replayKeyOf(key);
    this.answering.set(id, done);
    const forget = () => {
      if (this.answering.get(id) === done) this.answering.delete(id);
    };
    void done.then(forget, forget);
  }
}

function replayKeyOf(key: ReplayKey): string {
  return `${key.scope}\u0000${key.messageId}`;
}
