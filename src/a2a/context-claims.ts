/**
 * One turn at a time per context, on every process sharing the task store: a turn (or a cancel)
 * claims its context in the store for a lease, renewed while it runs and released when it is over.
 * A second message finds the context busy wherever it lands; a process that dies leaves a claim that
 * lapses, and its context is free again. The work running here is also kept as a promise, so that a
 * cancel can follow the turn it cancels.
 */
import { A2aError, invalidParams } from './a2a-error.js';
import type { Logger } from '../runtime/logger.js';
import type { ContextIdentity, Eviction, TaskStore } from './tasks/task-store.js';

/** how long a claim holds without renewal: a dead process's contexts are free again after it */
export const DEFAULT_CLAIM_LEASE_MS = 30_000;
const RELEASE_RETRY_MS = 1_000;

export interface ContextClaimsOptions {
  readonly store: TaskStore;
  /** this process (its claims are told apart from other processes') */
  readonly holder: string;
  readonly maxContexts: number;
  readonly now: () => number;
  readonly logger: Logger;
  readonly leaseMs?: number;
}

export class ContextClaims {
  private readonly options: ContextClaimsOptions;
  private readonly leaseMs: number;
  /** the work running on each context claimed here */
  private readonly running = new Map<string, Promise<void>>();
  private renewal: NodeJS.Timeout | undefined;
  /**
   * contexts whose claim this process could not release (the store was away): still claimed in the
   * store, so until released again every message would find them busy, here and elsewhere
   */
  private readonly unreleased = new Set<string>();
  /** the release running for each context, so that a claim waits for it */
  private readonly releasing = new Map<string, Promise<void>>();
  private releaseRetry: NodeJS.Timeout | undefined;

  constructor(options: ContextClaimsOptions) {
    this.options = options;
    this.leaseMs = options.leaseMs ?? DEFAULT_CLAIM_LEASE_MS;
  }

  /** the work running on the context in this process, if any */
  runningOn(key: string): Promise<void> | undefined {
    return this.running.get(key);
  }

  /**
   * Claims the context for a turn: CONTEXT_BUSY while another turn runs on it (here or elsewhere),
   * invalid params when it is another caller's, MAX_CONTEXTS_REACHED when the cap leaves no room.
   * Returns the contexts evicted to make room; their open tasks are the caller's to end.
   */
  async claim(identity: ContextIdentity): Promise<{
    taskIds: readonly string[];
    taskBytes?: number;
    openTaskIds?: readonly string[];
    evictions: readonly Eviction[];
  }> {
    if (this.running.has(identity.key)) throw busy(identity.contextId);
    // a claim of ours left over from a failed release is not another turn
    if (this.unreleased.has(identity.key) || this.releasing.has(identity.key))
      await this.release(identity.key);
    const { store, holder, maxContexts, now } = this.options;
    const outcome = await store.claimContext({
      ...identity,
      holder,
      now: now(),
      leaseMs: this.leaseMs,
      maxContexts,
    });
    switch (outcome.kind) {
      case 'claimed':
        // a placeholder until the work is known, so that a second message here is refused at once
        this.running.set(identity.key, new Promise<void>(() => undefined));
        this.renewSoon();
        return {
          taskIds: outcome.context.taskIds,
          ...(outcome.context.taskBytes !== undefined ? { taskBytes: outcome.context.taskBytes } : {}),
          ...(outcome.context.openTaskIds ? { openTaskIds: outcome.context.openTaskIds } : {}),
          evictions: outcome.evictions,
        };
      case 'busy':
        throw busy(identity.contextId);
      case 'other_owner':
        throw invalidParams(`Context ${identity.contextId} belongs to another caller.`, 'message.contextId');
      case 'full':
        throw new A2aError({
          reason: 'MAX_CONTEXTS_REACHED',
          message:
            `This agent holds its maximum of ${outcome.cap} contexts and this caller its fair share of them (${outcome.share}); ` +
            'finish or cancel a task of yours, or continue an existing context.',
          metadata: { maxContexts: String(outcome.cap), callerShare: String(outcome.share) },
        });
    }
  }

  /**
   * The context stays claimed until `work` is over, even when its task ended before (timeout,
   * cancel); `after` runs once the claim is released (retention). Later work on the same context
   * (a cancel following its turn) replaces earlier work, and the claim ends with the last. Resolves
   * once the claim is released (or its release failed and is retried, or later work holds it).
   */
  hold(key: string, work: Promise<unknown>, after: () => Promise<void>): Promise<void> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.set(key, settled);
    let released: () => void = () => undefined;
    const whenReleased = new Promise<void>((resolve) => {
      released = resolve;
    });
    void settled.then(async () => {
      if (this.running.get(key) !== settled) {
        released();
        return;
      }
      this.running.delete(key);
      try {
        await this.release(key);
      } catch {
        released(); // retried (release)
        return;
      }
      released();
      await after().catch((error: unknown) =>
        this.options.logger.error(
          { conversationId: key, error: String(error) },
          'a2a context retention not applied',
        ),
      );
    });
    return whenReleased;
  }

  /** Gives up a claim whose work never started (the message was refused after the claim). */
  async abandon(key: string): Promise<void> {
    this.running.delete(key);
    await this.release(key);
  }

  /** Stops renewing (server shutdown); claims still held lapse by themselves. */
  close(): void {
    clearInterval(this.renewal);
    this.renewal = undefined;
    clearInterval(this.releaseRetry);
    this.releaseRetry = undefined;
  }

  /**
   * Releases the context's claim; when the store fails, the context is remembered and released
   * again every second until the store answers (a claim claimed here waits for it), instead of
   * staying busy for every process until the lease lapses.
   */
  private release(key: string): Promise<void> {
    const pending = this.releasing.get(key);
    if (pending) return pending;
    const released = this.options.store.releaseContext(key, this.options.holder).then(
      () => {
        this.unreleased.delete(key);
      },
      (error: unknown) => {
        if (!this.unreleased.has(key))
          this.options.logger.error(
            { conversationId: key, error: String(error) },
            'a2a context release failed: retrying',
          );
        this.unreleased.add(key);
        this.retryReleasesSoon();
        throw error;
      },
    );
    const settle = () => {
      if (this.releasing.get(key) === released) this.releasing.delete(key);
    };
    void released.then(settle, settle);
    this.releasing.set(key, released);
    return released;
  }

  private retryReleasesSoon(): void {
    if (this.releaseRetry) return;
    this.releaseRetry = setInterval(() => {
      const keys = [...this.unreleased].filter((key) => !this.running.has(key));
      if (this.unreleased.size === 0) {
        clearInterval(this.releaseRetry);
        this.releaseRetry = undefined;
      }
      for (const key of keys) void this.release(key).catch(() => undefined);
    }, RELEASE_RETRY_MS);
    this.releaseRetry.unref();
  }

  private renewSoon(): void {
    if (this.renewal) return;
    this.renewal = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.leaseMs / 3)));
    this.renewal.unref();
  }

  private async renew(): Promise<void> {
    const keys = [...this.running.keys()];
    if (keys.length === 0) {
      this.close();
      return;
    }
    try {
      await this.options.store.renewClaims(keys, this.options.holder, this.options.now() + this.leaseMs);
    } catch (error) {
      this.options.logger.warn({ contexts: keys.length, error: String(error) }, 'a2a claim renewal failed');
    }
  }
}

function busy(contextId: string): A2aError {
  return new A2aError({
    reason: 'CONTEXT_BUSY',
    message: `Context ${contextId} is still handling an earlier message; send this one when that answer arrived.`,
    metadata: { contextId },
  });
}
