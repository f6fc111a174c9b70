/**
 * Driver errors (pg, better-sqlite3, knex's pool) as AppErrors with stable codes. Anything that is not
 * a corrupt file is STORE_UNAVAILABLE: the turn fails and is not half-written (every write is one
 * transaction), and the next turn tries again on a fresh connection.
 */
import { AppError } from '../../core/errors.js';

/** PostgreSQL SQLSTATEs and socket errors that mean "the database cannot be reached right now". */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  '57P01', // admin_shutdown: our backend was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '3D000', // invalid_catalog_name: the database does not exist (dropped?)
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

const CONNECTION_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /timeout expired/i, // pg's connect timeout
  /Client has encountered a connection error/i,
  /Timeout acquiring a connection/i,
  /connect(ion)? (timeout|timed out)/i,
  /not queryable/i,
];

const CORRUPT_SQLITE_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  return error instanceof Error ? error.message : String(error);
}

/** The connection was lost or refused (worth one retry for a read on a fresh connection). */
export function isConnectionError(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isConnectionError);
  const code = errorCode(error);
  if (code !== undefined && CONNECTION_CODES.has(code)) return true;
  if (error instanceof Error && error.name === 'KnexTimeoutError') return true;
  const message = messageOf(error);
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(message));
}

/** The database did not answer in time: an immediate retry would only wait as long again. */
export function isTimeout(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isTimeout);
  if (errorCode(error) === 'ETIMEDOUT') return true;
  if (error instanceof Error && error.name === 'KnexTimeoutError') return true;
  return /timeout expired|timeout exceeded|timed out/i.test(messageOf(error));
}

/** A table of ours is missing (the database was dropped and recreated): migrate again before retrying. */
export function isMissingTable(error: unknown): boolean {
  return errorCode(error) === '42P01' || /no such table/i.test(messageOf(error));
}

export function isUniqueViolation(error: unknown): boolean {
  const code = errorCode(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * `error` as an AppError; AppErrors (conflicts, corrupt events) pass through unchanged. `store` names
 * the store for the message, e.g. "tracker store (postgresql at db:5432/bot)".
 */
export function storeError(error: unknown, store: string, operation: string): AppError {
  if (error instanceof AppError) return error;
  const code = errorCode(error);
  const reason = messageOf(error);
  if (code !== undefined && CORRUPT_SQLITE_CODES.has(code))
    return new AppError({
      code: 'STORE_CORRUPT',
      message: `The ${store} is not a readable database: ${reason}`,
      details: { operation, driverCode: code },
      cause: error,
    });
  const unreachable = isConnectionError(error);
  return new AppError({
    code: 'STORE_UNAVAILABLE',
    message: unreachable
      ? `The ${store} cannot be reached: ${reason}`
      : `The ${store} failed to ${operation}: ${reason}`,
    details: { operation, ...(code ? { driverCode: code } : {}) },
    cause: error,
  });
}
