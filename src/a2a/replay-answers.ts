/**
 * The first answer to a messageId sent again: a retry runs nothing and gets what the first send got,
 * from the task store (any process answered it), or, while the first send is still being answered in
 * this process, once that answer is there. The same messageId with another message is refused.
 */
import { A2aError, invalidParams } from './a2a-error.js';
import type { ClaimResult, ContextClaims } from './context-claims.js';
import type { Task } from './tasks/model.js';
import type { AcceptedTask, ContextIdentity, ReplayEntry, ReplayKey, TaskStore } from './tasks/task-store.js';
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

  /** whether messageIds are remembered at all */
  get enabled(): boolean {
    return this.options.ttlMs > 0;
  }

  /** The first answer to this message, if it was sent before (awaited when still being produced here). */
  async replayed(key: ReplayKey, fingerprint: string, contextId: string): Promise<SendResult | undefined> {
    if (!this.enabled) return undefined;
    const entry = await this.options.store.getReplay(key, this.options.now());
    return entry ? this.answer(entry, key, fingerprint, contextId) : undefined;
  }

  /** The first answer to the message whose replay entry this is (read with a claim, or by `replayed`). */
  async answer(
    entry: ReplayEntry,
    key: ReplayKey,
    fingerprint: string,
    contextId: string,
  ): Promise<SendResult | undefined> {
    const { store } = this.options;
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

  /**
   * Claims the context for a message, unless it was sent before: the claim reads its replay entry
   * (`withClaim`: one write for both) and a busy context is looked at again, for a retry racing its
   * first send. An entry whose task is gone answers nothing: the message then runs as if never sent.
   */
  async claimUnlessSent(
    claims: ContextClaims,
    message: {
      readonly identity: ContextIdentity;
      readonly key: ReplayKey;
      readonly fingerprint: string;
      readonly withClaim: boolean;
      /** the task the message starts, stored with the claim */
      readonly start?: AcceptedTask;
    },
  ): Promise<Extract<ClaimResult, { kind: 'claimed' }> | SendResult> {
    const { identity, key, fingerprint, withClaim, start } = message;
    try {
      const claimed = await claims.claim(identity, {
        ...(withClaim && this.enabled ? { replay: key } : {}),
        ...(start ? { start } : {}),
      });
      if (claimed.kind === 'claimed') return claimed;
      const replayed = await this.answer(claimed.entry, key, fingerprint, identity.contextId);
      return replayed ?? (await this.claimUnlessSent(claims, { ...message, withClaim: false }));
    } catch (error) {
      if (!(error instanceof A2aError) || error.reason !== 'CONTEXT_BUSY') throw error;
      const replayed = await this.replayed(key, fingerprint, identity.contextId);
      if (replayed) return replayed;
      throw error;
    }
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
