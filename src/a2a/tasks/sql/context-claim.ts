/**
 * Claiming a context, as a script of statements for one transaction: the memory store's rules
 * (memory/contexts.ts) on the a2a_contexts table. An existing context is reopened unless another turn
 * holds an unlapsed claim on it or another caller owns it; a new one needs room under the cap: the
 * least recently used idle context (no live claim, no open task) is evicted with its tasks, else a
 * caller under its fair share (the cap divided among the callers) evicts the least recently used
 * unclaimed context of the caller holding the most, whose tasks stay stored, else the cap is full.
 *
 * SQLite runs it in a write transaction; PostgreSQL when its one-statement claim
 * (postgres-task-statements.ts) finds the cap reached, holding the lock under which contexts are
 * created. Each step is written so that a concurrent claim of the same rows, on PostgreSQL, is seen:
 * a context is reclaimed or evicted only if it is still unclaimed when its row is written.
 */
import type {
  ClaimOutcome,
  ClaimRequest,
  ContextClaim,
  Eviction,
  EvictionReason,
  ReplayEntry,
  ReplayKey,
} from '../task-store.js';
import { rows, run } from './sql-runner.js';
import type { SqlScript } from './sql-runner.js';
import type { SqlDialect } from './task-database.js';
import { contextOf, decodeOwner, encodeOwner, replayEntryOf, scopeKey, storedTaskOf } from './task-rows.js';
import type { ContextRow, MemberRow, ReplayRow, TaskRow } from './task-rows.js';
import { TERMINAL_STATES } from '../model.js';
import type { TaskState } from '../model.js';
import { CONTEXT_SQL, TASK_SQL } from './task-sql.js';
import type { SaveScript } from './task-writes.js';

/** victims looked for again when another process claimed the chosen one first */
const ATTEMPTS = 5;

type Victim = Pick<ContextRow, 'context_key' | 'context_id' | 'owner'>;

type Room =
  | { readonly kind: 'room'; readonly evictions: readonly Eviction[] }
  | { readonly kind: 'full'; readonly cap: number; readonly share: number };

/** `save`: the dialect's save, for the task the claim starts (ClaimRequest.start) */
export function* claimContextIn(
  dialect: SqlDialect,
  request: ClaimRequest,
  save: SaveScript,
): SqlScript<ClaimOutcome> {
  const { now, start } = request;
  const entry = request.replay ? yield* replayOf(request.replay, now) : undefined;
  if (entry) return { kind: 'replayed', entry };
  const outcome = yield* claimIn(dialect, request);
  if (outcome.kind === 'claimed' && start)
    yield* save(start.task, start.replay ? { replay: start.replay } : {}, now);
  return outcome;
}

function* claimIn(dialect: SqlDialect, request: ClaimRequest): SqlScript<ClaimOutcome> {
  const { key, contextId, now } = request;
  const owner = encodeOwner(request.owner);
  const claim: ContextClaim = { holder: request.holder, until: now + request.leaseMs };
  const [current] = yield* rows<ContextRow>(CONTEXT_SQL.get, [key]);
  if (current) {
    if (current.owner !== owner) return { kind: 'other_owner' };
    const { holder, until } = claim;
    const reclaimed = yield* run(CONTEXT_SQL.reclaim(dialect), [now, holder, holder, until, key, now]);
    if (reclaimed === 0) return { kind: 'busy' };
    const members = yield* membersOf(key);
    const context = contextOf({ ...current, claim_holder: claim.holder, claim_until: claim.until }, members);
    return { kind: 'claimed', context, evictions: [] };
  }
  const room = yield* makeRoom(request, owner);
  if (room.kind === 'full') return room;
  const inserted = yield* run(CONTEXT_SQL.insert(dialect), [
    key,
    contextId,
    owner,
    now,
    claim.holder,
    claim.holder,
    claim.until,
  ]);
  // only a PostgreSQL claim without a cap, which takes no lock, can have opened it meanwhile
  if (inserted === 0) return { kind: 'busy' };
  const context = { key, contextId, owner: request.owner, taskIds: [], taskBytes: 0, openTaskIds: [], claim };
  return { kind: 'claimed', context, evictions: room.evictions };
}

/** the message's replay entry, unless expired at `now` */
export function* replayOf(key: ReplayKey, now: number): SqlScript<ReplayEntry | undefined> {
  const [row] = yield* rows<ReplayRow>(TASK_SQL.replay, [scopeKey(key.scope), key.messageId, now]);
  return row ? replayEntryOf(row) : undefined;
}

/** the context's task ids, oldest first, their size, and those not terminal */
export function* membersOf(
  key: string,
): SqlScript<{ taskIds: string[]; taskBytes: number; openTaskIds: string[] }> {
  const members = yield* rows<MemberRow>(TASK_SQL.memberIds, [key]);
  return {
    taskIds: members.map((member) => member.task_id),
    taskBytes: members.reduce((sum, member) => sum + Number(member.bytes), 0),
    openTaskIds: members
      .filter((member) => !TERMINAL_STATES.has(member.state as TaskState))
      .map((member) => member.task_id),
  };
}

function* makeRoom(request: ClaimRequest, owner: string): SqlScript<Room> {
  const { maxContexts: cap, now } = request;
  if (cap <= 0) return { kind: 'room', evictions: [] };
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const [count] = yield* rows<{ total: number | string }>(CONTEXT_SQL.count);
    if (Number(count?.total) < cap) return { kind: 'room', evictions: [] };
    const [idle] = yield* rows<Victim>(CONTEXT_SQL.idle, [now]);
    let eviction: Eviction | undefined;
    if (idle) eviction = yield* evict(idle, 'idle', now);
    else {
      const share = yield* shareOf(owner, cap);
      const [waiting] = share.evicts ? yield* rows<Victim>(CONTEXT_SQL.waiting, [share.evicts, now]) : [];
      if (!waiting) return { kind: 'full', cap, share: share.share };
      eviction = yield* evict(waiting, 'fair_share', now);
    }
    if (eviction) return { kind: 'room', evictions: [eviction] };
  }
  return { kind: 'full', cap, share: (yield* shareOf(owner, cap)).share };
}

/**
 * The caller's fair share of the cap (divided among the callers holding contexts, the caller
 * included), and whose context it may evict: the heaviest caller's, while it holds less than its share.
 */
function* shareOf(
  owner: string,
  cap: number,
): SqlScript<{ readonly share: number; readonly evicts?: string }> {
  const [row] = yield* rows<{ owners: number | string; mine: number | string; heaviest: string | null }>(
    CONTEXT_SQL.shares,
    [owner],
  );
  const mine = Number(row?.mine ?? 0);
  const callers = Number(row?.owners ?? 0) + (mine > 0 ? 0 : 1);
  const share = Math.max(1, Math.floor(cap / callers));
  const heaviest = row?.heaviest ?? null;
  return mine < share && heaviest !== null && heaviest !== owner ? { share, evicts: heaviest } : { share };
}

/**
 * Forgets the context, if it is still unclaimed: with its tasks (and their push configs), or keeping
 * them for `fair_share`. Undefined when another turn claimed it first.
 */
function* evict(victim: Victim, reason: EvictionReason, now: number): SqlScript<Eviction | undefined> {
  const key = victim.context_key;
  if ((yield* run(CONTEXT_SQL.forgetUnclaimed, [key, now])) === 0) return undefined;
  const openTasks = (yield* rows<TaskRow>(CONTEXT_SQL.openMembers, [key])).map(storedTaskOf);
  if (reason === 'fair_share') yield* run(CONTEXT_SQL.detachMembers, [key]);
  else {
    yield* run(CONTEXT_SQL.deleteMemberPush, [key]);
    yield* run(CONTEXT_SQL.deleteMembers, [key]);
  }
  const context = { key, contextId: victim.context_id, owner: decodeOwner(victim.owner) };
  return { context, reason, openTasks };
}
