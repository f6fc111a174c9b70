/**
 * What an A2A task signal carries between processes, whatever carries it (PostgreSQL NOTIFY, Redis
 * pub/sub): the sender's id, the kind and the task id, as JSON; the state itself is read from the store.
 */

export type TaskSignalKind = 'settled' | 'cancel';

/** what src/a2a/tasks/task-signals.ts hands in (stores import core only, so it is restated here) */
export interface TaskSignalListener {
  settled(taskId: string): void;
  cancel(taskId: string): void;
}

interface Payload {
  readonly from: string;
  readonly kind: TaskSignalKind;
  readonly taskId: string;
}

export function encodeTaskSignal(from: string, kind: TaskSignalKind, taskId: string): string {
  return JSON.stringify({ from, kind, taskId } satisfies Payload);
}

/** Hands a signal heard to `listener`, unless this process (`self`) sent it or it is not one of ours. */
export function dispatchTaskSignal(
  raw: string | undefined,
  self: string,
  listener: TaskSignalListener | undefined,
): void {
  let payload: Partial<Payload>;
  try {
    payload = JSON.parse(raw ?? '') as Partial<Payload>;
  } catch {
    return;
  }
  if (payload.from === self || typeof payload.taskId !== 'string') return;
  if (payload.kind === 'settled') listener?.settled(payload.taskId);
  else if (payload.kind === 'cancel') listener?.cancel(payload.taskId);
}
