/**
 * Tracker and lock stores from endpoints.yml's `tracker_store` and `lock_store` blocks (after `${VAR}`
 * interpolation), with Rasa's keys. Without a `tracker_store` block conversations go to a SQLite
 * file in the project (Rasa keeps them in memory); without a `lock_store` block turns are serialised
 * in memory, which is right for one process. A block that cannot be used is STORE_CONFIG_INVALID,
 * listing every problem; keys we do not use are logged as warnings (Rasa ignores them).
 */
import type { LockStore, TrackerStore } from '../core/ports.js';
import { ConfigReader } from './config-reader.js';
import { PostgresLockStore } from './locks/postgres-lock-store.js';
import { REDIS_KEYS, readRedisConnection } from './locks/redis-connection.js';
import { DEFAULT_LEASE_MS, RedisLockStore } from './locks/redis-lock-store.js';
import { MemoryLockStore } from './memory-lock-store.js';
import { MemoryTrackerStore } from './memory-tracker-store.js';
import { POSTGRES_KEYS, readPostgresTarget } from './sql/postgres-target.js';
import { DEFAULT_LIMITS } from './sql/sql-connection.js';
import { DEFAULT_SQLITE_FILE, SQL_KEYS, readSqlTarget, sqliteTarget } from './sql/sql-target.js';
import { SqlTrackerStore } from './sql/sql-tracker-store.js';
import type { StoreLogger } from './store-logger.js';
import { SILENT_STORE_LOGGER } from './store-logger.js';

export interface StoreFactoryOptions {
  /** the endpoints.yml block, e.g. `assistant.endpoints['tracker_store']`; undefined when absent */
  readonly config: unknown;
  /** relative SQLite files and TLS files are resolved against it */
  readonly projectRoot: string;
  readonly logger?: StoreLogger;
  /** POSTGRESQL_SCHEMA, SQL_POOL_SIZE, TICKET_LOCK_LIFETIME (Rasa's variables); process.env by default */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A store that can say what it is for the startup log ("sqlite at /srv/bot/.parley/tracker.db"). */
export interface Described {
  describe(): string;
  /** connects (and migrates) now, to fail fast at startup; otherwise the first operation does it */
  open?(): Promise<void>;
  close?(): Promise<void>;
}

export const MEMORY_TYPES: ReadonlySet<string> = new Set(['in_memory', 'memory', 'inmemory']);
const LOCK_TIMING_KEYS = ['wait_timeout'];

export function createTrackerStore(options: StoreFactoryOptions): TrackerStore & Described {
  const logger = options.logger ?? SILENT_STORE_LOGGER;
  const env = options.env ?? process.env;
  if (options.config === undefined || options.config === null)
    return new SqlTrackerStore({ target: sqliteTarget(DEFAULT_SQLITE_FILE, options.projectRoot), logger });
  const reader = readerOf('tracker_store', options.config);
  const type = typeOf(reader, ['sql', 'in_memory']);
  if (type !== undefined && MEMORY_TYPES.has(type)) {
    warnUnknownKeys(reader, ['type'], logger);
    return new MemoryTrackerStore();
  }
  if (type !== undefined && type !== 'sql')
    reader.problem(unsupported('tracker_store', type, 'sql or in_memory'));
  const target =
    type === 'sql' ? readSqlTarget(reader, { projectRoot: options.projectRoot, env }) : undefined;
  const poolSize = positiveInteger(reader, env['SQL_POOL_SIZE'], 'SQL_POOL_SIZE');
  reader.throwIfInvalid();
  warnUnknownKeys(reader, SQL_KEYS, logger);
  return new SqlTrackerStore({
    target: target as NonNullable<typeof target>,
    logger,
    limits: { poolSize: poolSize ?? DEFAULT_LIMITS.poolSize },
  });
}

export function createLockStore(options: StoreFactoryOptions): LockStore & Described {
  const logger = options.logger ?? SILENT_STORE_LOGGER;
  const env = options.env ?? process.env;
  if (options.config === undefined || options.config === null) return new MemoryLockStore();
  const reader = readerOf('lock_store', options.config);
  const type = typeOf(reader, ['in_memory', 'redis', 'concurrent_redis', 'postgresql']);
  if (type !== undefined && MEMORY_TYPES.has(type)) {
    warnUnknownKeys(reader, ['type'], logger);
    return new MemoryLockStore();
  }
  const waitSeconds = reader.seconds('wait_timeout');
  const waitTimeoutMs = waitSeconds === undefined ? {} : { waitTimeoutMs: waitSeconds * 1000 };
  if (type === 'redis' || type === 'concurrent_redis') {
    const lifetime =
      reader.seconds('lifetime') ??
      positiveNumber(reader, env['TICKET_LOCK_LIFETIME'], 'TICKET_LOCK_LIFETIME');
    const connection = readRedisConnection(reader, {
      projectRoot: options.projectRoot,
      defaultDb: type === 'concurrent_redis' ? 1 : 0,
    });
    reader.throwIfInvalid();
    warnUnknownKeys(reader, ['type', 'lifetime', ...LOCK_TIMING_KEYS, ...REDIS_KEYS], logger);
    const leaseMs = lifetime === undefined ? DEFAULT_LEASE_MS : lifetime * 1000;
    return new RedisLockStore({
      connection: connection as NonNullable<typeof connection>,
      logger,
      leaseMs,
      ...waitTimeoutMs,
    });
  }
  if (type === 'postgresql' || type === 'postgres') {
    const target = readPostgresTarget(reader, env);
    const poolSize = positiveInteger(reader, env['SQL_POOL_SIZE'], 'SQL_POOL_SIZE');
    reader.throwIfInvalid();
    warnUnknownKeys(reader, ['type', ...LOCK_TIMING_KEYS, ...POSTGRES_KEYS], logger);
    return new PostgresLockStore({
      target: target as NonNullable<typeof target>,
      logger,
      ...waitTimeoutMs,
      ...(poolSize ? { poolSize } : {}),
    });
  }
  if (type !== undefined)
    reader.problem(unsupported('lock_store', type, 'in_memory, redis, concurrent_redis or postgresql'));
  reader.throwIfInvalid();
  throw new Error('unreachable: a lock store type without a problem');
}

/**
 * A PostgreSQL lock store on the tracker store's own database and schema runs each turn on one
 * connection (the lock and the load in one statement: postgres-turn-session.ts). Call it once the
 * tracker store has opened (migrated). Answers whether the two were joined.
 */
export function joinTurnStores(trackerStore: TrackerStore, lockStore: LockStore): boolean {
  if (!(lockStore instanceof PostgresLockStore) || !(trackerStore instanceof SqlTrackerStore)) return false;
  const tracker = trackerStore.target;
  const lock = lockStore.target;
  if (tracker.dialect !== 'postgresql' || tracker.url !== lock.url || tracker.schema !== lock.schema)
    return false;
  lockStore.joinTrackerStore(trackerStore);
  return true;
}

function readerOf(section: string, config: unknown): ConfigReader {
  if (typeof config === 'object' && config !== null && !Array.isArray(config))
    return new ConfigReader({ section, raw: config as Record<string, unknown> });
  const reader = new ConfigReader({ section, raw: {} });
  reader.problem(`${section} must be a map of settings`);
  reader.throwIfInvalid();
  return reader;
}

/** `type` in lower case (Rasa compares it case-insensitively); a problem when it is missing. */
function typeOf(reader: ConfigReader, examples: readonly string[]): string | undefined {
  const type = reader.string('type');
  if (type === undefined && reader.problems.length === 0)
    reader.problem(`${reader.section}.type is required (${examples.join(', ')})`);
  return type?.trim().toLowerCase();
}

function unsupported(section: string, type: string, supported: string): string {
  const why = type.includes('.')
    ? 'custom store classes are Python module paths, which Parley cannot load'
    : 'Parley does not implement it';
  return `${section}.type '${type}' is not supported (${why}); use ${supported}`;
}

function positiveInteger(reader: ConfigReader, value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (Number.isInteger(parsed) && parsed > 0) return parsed;
  reader.problem(`environment variable ${name} must be a positive whole number, not '${value}'`);
  return undefined;
}

function positiveNumber(reader: ConfigReader, value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (Number.isFinite(parsed) && parsed > 0) return parsed;
  reader.problem(`environment variable ${name} must be a positive number of seconds, not '${value}'`);
  return undefined;
}

function warnUnknownKeys(reader: ConfigReader, known: readonly string[], logger: StoreLogger): void {
  const unknown = reader.unknownKeys(known);
  if (unknown.length > 0)
    logger.warn(
      { section: reader.section, keys: unknown },
      `${reader.section}: ignoring settings Parley does not use`,
    );
}
