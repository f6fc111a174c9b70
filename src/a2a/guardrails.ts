/**
 * Start-up checks that refuse a setup in which A2A would lose state silently (Rasa 3.17's
 * `validation.a2a_server.*` checks, with its codes in the messages so users can search for them).
 */
import type { Assistant } from '../core/assistant.js';
import { AppError } from '../core/errors.js';

export const INCOMPATIBLE_SESSION_CONFIG = 'validation.a2a_server.incompatible_session_config';
export const INCOMPATIBLE_WORKERS = 'validation.a2a_server.incompatible_workers';

/** Variables through which process managers ask for several workers (Rasa reads SANIC_WORKERS). */
export const WORKER_VARIABLES = ['SANIC_WORKERS', 'WEB_CONCURRENCY'] as const;

export interface GuardrailOptions {
  readonly assistant: Assistant;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** whether A2A tasks, contexts and replays live in this process's memory (the tracker store's when not) */
  readonly inMemoryState: boolean;
}

export interface GuardrailFailure {
  readonly check: string;
  readonly message: string;
}

export function checkGuardrails(options: GuardrailOptions): GuardrailFailure[] {
  const failures: GuardrailFailure[] = [];
  if (options.assistant.domain.sessionConfig.startSessionAfterExpiry)
    failures.push({
      check: INCOMPATIBLE_SESSION_CONFIG,
      message:
        'a2a_server needs `session_config: start_session_after_expiry: false` in domain.yml. An A2A context ' +
        'keeps its conversation id across turns; a session restarted after inactivity would wipe the slots ' +
        'of a task that is waiting for input.',
    });
  const workers = requestedWorkers(options.env);
  if (options.inMemoryState && workers)
    failures.push({
      check: INCOMPATIBLE_WORKERS,
      message:
        `${workers.variable}=${workers.count} asks for ${workers.count} worker processes, but A2A tasks, ` +
        `contexts and replays live in the memory of one process. Keep them in a SQL tracker store ` +
        '(tracker_store type: sql, a2a_server.task_store: tracker_store, a PostgreSQL or Redis lock_store) ' +
        `and run \`parley run --workers N\`, or unset ${workers.variable}.`,
    });
  return failures;
}

/** Throws A2A_SETUP_INCOMPATIBLE listing every failed check. */
export function assertGuardrails(options: GuardrailOptions): void {
  const failures = checkGuardrails(options);
  if (failures.length === 0) return;
  const lines = failures.map((failure) => `  - ${failure.check}: ${failure.message}`);
  throw new AppError({
    code: 'A2A_SETUP_INCOMPATIBLE',
    message: `The A2A server cannot start:\n${lines.join('\n')}`,
    details: { checks: failures.map((failure) => failure.check) },
  });
}

function requestedWorkers(
  env: Readonly<Record<string, string | undefined>>,
): { variable: string; count: number } | undefined {
  for (const variable of WORKER_VARIABLES) {
    const count = Number(env[variable]?.trim());
    if (Number.isInteger(count) && count > 1) return { variable, count };
  }
  return undefined;
}
