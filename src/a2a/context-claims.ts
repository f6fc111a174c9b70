/**
 * One turn at a time per context, on every process sharing the task store: a turn (or a cancel)
 * claims its context in the store for a lease, renewed while it runs and released when it is over.
 * A second message finds the context busy wherever it lands; a process that dies leaves a claim that
 * lapses, and its context is free again. The work running here is also kept as a promise, so that a
 * cancel can follow the turn it cancels.
 */
import { A2aError, invalidParams } from './a2a-error.js';
import type { Logger } from '../runtime/logger.js';
import type {
  AcceptedTask,
  ClaimRelease,
  ContextIdentity,
  Eviction,
  ReplayEntry,
  ReplayKey,
  StoredTask,
  TaskStore,
} from './tasks/task-store.js';

/** a claim made (what the store told of the context), or the replay entry of a message sent before */
export type ClaimResult =
  | {
      readonly kind: 'claimed';
      readonly taskIds: readonly string[];
      readonly taskBytes?: number;
      readonly openTaskIds?: readonly string[];
      readonly openTasks?: readonly StoredTask[];
      /** StoredContext.keptAt */
      readonly keptAt?: number;
      readonly evictions: readonly Eviction[];
    }
  | { readonly kind: 'replayed'; readonly entry: ReplayEntry };

/** work holding a context's claim (ContextClaims.hold) */
export interface ClaimHold {
  /** resolves once the claim is released, or its release failed (it is retried), or later work holds it */
  readonly released: Promise<void>;
  /**
   * Runs the work's last write, handing it the claim to end in the same write (SaveOptions.release)
   * when no later work holds the context here; undefined otherwise. A failed write leaves the claim
   * to be released again, as a failed release does.
   */
  releaseIn<T>(write: (release: ClaimRelease | undefined) => Promise<T>): Promise<T>;
}

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
   * Returns the contexts evicted to make room; their open tasks are the caller's to end. With the
   * message's `replay` key, a message sent before claims nothing and its replay entry is returned;
   * `start`, the task the message starts, is stored with the claim.
   */
  async claim(
    identity: ContextIdentity,
    claimWith: { readonly replay?: ReplayKey; readonly start?: AcceptedTask } = {},
  ): Promise<ClaimResult> {
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
      ...claimWith,
    });
    switch (outcome.kind) {
      case 'claimed': {
        // a placeholder until the work is known, so that a second message here is refused at once
        this.running.set(identity.key, new Promise<void>(() => undefined));
        this.renewSoon();
        const { taskIds, taskBytes, openTaskIds, openTasks, keptAt } = outcome.context;
        return {
          kind: 'claimed',
          taskIds,
          ...(taskBytes !== undefined ? { taskBytes } : {}),
          ...(openTaskIds ? { openTaskIds } : {}),
          ...(openTasks ? { openTasks } : {}),
          ...(keptAt !== undefined ? { keptAt } : {}),
          evictions: outcome.evictions,
        };
      }
      case 'replayed':
        return outcome;
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
   * cancel); `after` runs once the claim is released, or its release failed and is retried
   * (retention, and forgetting the work's copy of its task). Later work on the same context
   * (a cancel following its turn) replaces earlier work, and the claim ends with the last. The hold's
   * `released` resolves once the claim is released (or its release failed and is retried, or later
   * work holds it); its `releaseIn` lets the work's last write end the claim in the same write.
   */
  hold(key: string, work: Promise<unknown>, after: () => Promise<void>): ClaimHold {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.set(key, settled);
    let released: () => void = () => undefined;
    const whenReleased = new Promise<void>((resolve) => {
      released = resolve;
    });
    /** set when the work's last write carried the release: whether that write succeeded */
    let releasedByWrite: Promise<boolean> | undefined;
    void settled.then(async () => {
      if (releasedByWrite) await releasedByWrite;
      else if (this.running.get(key) !== settled) {
        released();
        return;
      } else {
        this.running.delete(key);
        // a failed release is retried (release); the work is over all the same
        await this.release(key).catch(() => undefined);
      }
      released();
      await this.afterRelease(key, after);
    });
    const releaseIn = <T>(write: (release: ClaimRelease | undefined) => Promise<T>): Promise<T> => {
      // later work holds the context (a cancel following the turn): the claim is its to end
      if (this.running.get(key) !== settled || releasedByWrite) return write(undefined);
      // free here from now on: a claim of this process waits for the write (`releasing`)
      this.running.delete(key);
      const written = write({ key, holder: this.options.holder });
      releasedByWrite = this.track(key, written).then(
        () => true,
        () => false,
      );
      return written;
    };
    return { released: whenReleased, releaseIn };
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
    return this.track(key, this.options.store.releaseContext(key, this.options.holder));
  }

  /** a write that releases the context's claim: a failed one is retried as a release */
  private track(key: string, write: Promise<unknown>): Promise<void> {
    const released = write.then(
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

  private async afterRelease(key: string, after: () => Promise<void>): Promise<void> {
    await after().catch((error: unknown) =>
      this.options.logger.error(
        { conversationId: key, error: String(error) },
        'a2a context retention not applied',
      ),
    );
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
