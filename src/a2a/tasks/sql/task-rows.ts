/**
 * The SQL task store's rows and the values written for them. The task itself is JSON in `data`; the
 * other columns are what the queries filter and order on. Both drivers answer numbers as numbers or
 * (PostgreSQL BIGINT, COUNT, SUM) strings, hence the Number()s.
 */
import { createHash } from 'node:crypto';
import { TERMINAL_STATES } from '../model.js';
import type { Task, TaskState } from '../model.js';
import type { ContextClaim, ReplayEntry, StoredContext, StoredTask } from '../task-store.js';

export interface TaskRow {
  readonly owner: string;
  readonly context_key: string;
  readonly bytes: number | string;
  readonly deadline: number | null;
  readonly data: string;
}

export interface ContextRow {
  readonly context_key: string;
  readonly context_id: string;
  readonly owner: string;
  readonly claim_holder: string | null;
  readonly claim_until: number | null;
}

/** a task as its context counts it (retention) */
export interface MemberRow {
  readonly task_id: string;
  readonly state: string;
  readonly bytes: number | string;
}

/** the columns of a task, in TASK_COLUMNS' order */
export const TASK_COLUMNS =
  'task_id, context_key, owner, context_id, state, status_time, bytes, deadline, due, data';

export function taskValues(stored: StoredTask): unknown[] {
  const { task } = stored;
  // an unreadable timestamp sorts as the oldest (the memory store's order for it is undefined)
  const statusTime = Date.parse(task.status.timestamp);
  const open = !TERMINAL_STATES.has(task.status.state);
  return [
    task.id,
    stored.contextKey,
    encodeOwner(stored.owner),
    task.contextId,
    task.status.state,
    Number.isNaN(statusTime) ? 0 : statusTime,
    stored.bytes,
    stored.deadline ?? null,
    open ? (stored.deadline ?? null) : null,
    JSON.stringify(task),
  ];
}

export function storedTaskOf(row: TaskRow): StoredTask {
  return {
    task: JSON.parse(row.data) as Task,
    owner: decodeOwner(row.owner),
    contextKey: row.context_key,
    bytes: Number(row.bytes),
    ...(row.deadline !== null ? { deadline: Number(row.deadline) } : {}),
  };
}

export function contextOf(
  row: ContextRow,
  members: {
    readonly taskIds: readonly string[];
    readonly taskBytes: number;
    readonly openTaskIds: readonly string[];
  },
): StoredContext {
  return {
    key: row.context_key,
    contextId: row.context_id,
    owner: decodeOwner(row.owner),
    taskIds: members.taskIds,
    taskBytes: members.taskBytes,
    openTaskIds: members.openTaskIds,
    ...(row.claim_holder !== null ? { claim: claimOf(row.claim_holder, row.claim_until) } : {}),
  };
}

function claimOf(holder: string, until: number | null): ContextClaim {
  return { holder, until: Number(until) };
}

/**
 * The tasks to forget for a context over its limits: the oldest terminal ones, until the rest fit
 * (the open ones are never forgotten, even when they alone exceed the limits).
 */
export function beyondLimits(
  members: readonly MemberRow[],
  limits: { readonly perContext: number; readonly maxContextBytes: number },
): string[] {
  let count = members.length;
  let bytes = members.reduce((sum, member) => sum + Number(member.bytes), 0);
  const removed: string[] = [];
  for (const member of members) {
    if (count <= limits.perContext && bytes <= limits.maxContextBytes) break;
    if (!TERMINAL_STATES.has(member.state as TaskState)) continue;
    count -= 1;
    bytes -= Number(member.bytes);
    removed.push(member.task_id);
  }
  return removed;
}

/**
 * A caller's name as stored: PostgreSQL text cannot hold NUL, which a caller named by `azp` holds
 * (caller.ts). `\` becomes `\\` and NUL `\0`, which reads back unambiguously.
 */
export function encodeOwner(owner: string): string {
  return owner.replace(/\\/g, '\\\\').replace(/\0/g, '\\0');
}

export function decodeOwner(stored: string): string {
  return stored.replace(/\\([\\0])/g, (_, escaped: string) => (escaped === '0' ? '\0' : '\\'));
}

/** A replay scope as stored: a digest (scopes hold a NUL and may be long; they are never read back). */
export function scopeKey(scope: string): string {
  return createHash('sha256').update(scope, 'utf8').digest('base64url');
}

/** the terminal states as an SQL list: `state NOT IN …` is an open task */
export const TERMINAL_STATES_SQL = `(${[...TERMINAL_STATES].map((state) => `'${state}'`).join(', ')})`;

/** a replay entry as its row holds it */
export interface ReplayRow {
  readonly fingerprint: string;
  readonly task_id: string;
  readonly answer: string | null;
}

export function replayEntryOf(row: ReplayRow): ReplayEntry {
  const answer = row.answer === null ? undefined : (JSON.parse(row.answer) as Task);
  return { fingerprint: row.fingerprint, taskId: row.task_id, ...(answer ? { answer } : {}) };
}
