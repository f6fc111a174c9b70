/**
 * The SQL tracker store (SQLite, the embedded default, and PostgreSQL) on Rasa's `events` table plus
 * a `seq` column and a `tracker_snapshots` table (see migrations.ts and docs/stores.md).
 *
 * Loading reads the snapshot and the events after it in one statement, so a turn costs the same at
 * turn 1,000 as at turn 10. Appending is one transaction that writes first and checks after: the
 * events go in at seq = expectedCount…, the unique (sender_id, seq) index rejects a second writer that
 * loaded the same count, and a final check of the conversation's last seq rejects a writer whose count
 * was too high. Either way nothing is written and the turn gets TRACKER_CONFLICT.
 */
import type { Knex } from 'knex';
import { AppError } from '../../core/errors.js';
import { snapshotFromJson, snapshotToJson } from '../../core/events/snapshot-json.js';
import type { Event } from '../../core/events/types.js';
import type { RecentConversation, TrackerSnapshot, TrackerStore } from '../../core/ports.js';
import type { StoreLogger } from '../store-logger.js';
import { SILENT_STORE_LOGGER } from '../store-logger.js';
import { eventRow, eventsOfRows } from './event-rows.js';
import type { StoredEventRow } from './event-rows.js';
import { migrate } from './migrations.js';
import type { ConnectionLimits } from './sql-connection.js';
import {
  DEFAULT_LIMITS,
  assertSchemaExists,
  ensurePostgresDatabase,
  ensureSqliteFolder,
  openKnex,
} from './sql-connection.js';
import { isConnectionError, isMissingTable, isTimeout, isUniqueViolation, storeError } from './sql-errors.js';
import type { SqlTarget } from './sql-target.js';

export interface SqlTrackerStoreOptions {
  readonly target: SqlTarget;
  readonly logger?: StoreLogger;
  readonly limits?: Partial<ConnectionLimits>;
  /** seconds since the epoch, for the `updated` column and migration records */
  readonly now?: () => number;
}

/** Rasa's sender_id column is VARCHAR(255). */
export const MAX_CONVERSATION_ID_LENGTH = 255;
const INSERT_CHUNK = 500;

/** The snapshot row (seq -1) followed by the events from the one before the snapshot on, in one read. */
const LOAD_RECENT = `
  SELECT -1 AS seq, data, event_count, NULL AS timestamp FROM tracker_snapshots WHERE sender_id = ?
  UNION ALL
  SELECT seq, data, NULL, timestamp FROM events
  WHERE sender_id = ?
    AND seq >= COALESCE((SELECT event_count - 1 FROM tracker_snapshots WHERE sender_id = ?), 0)
  ORDER BY seq`;

const LAST_SEQ = `SELECT
  (SELECT MAX(seq) FROM events WHERE sender_id = ?) AS last,
  (SELECT COUNT(*) FROM events WHERE sender_id = ? AND seq = ?) AS predecessor`;

type RecentRow = StoredEventRow & { readonly event_count: number | string | null };

export class SqlTrackerStore implements TrackerStore {
  readonly target: SqlTarget;
  private readonly db: Knex;
  private readonly logger: StoreLogger;
  private readonly limits: ConnectionLimits;
  private readonly now: () => number;
  private ready: Promise<void> | undefined;
  private closed = false;

  constructor(options: SqlTrackerStoreOptions) {
    this.target = options.target;
    this.logger = options.logger ?? SILENT_STORE_LOGGER;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? (() => Date.now() / 1000);
    this.db = openKnex(options.target, this.limits, this.logger);
  }

  /** "sqlite at /srv/bot/.parley/tracker.db", "postgresql at host:5432/db": for the startup log */
  describe(): string {
    return this.target.description;
  }

  /** Connects and migrates the schema; the first operation does it too, this only fails earlier. */
  open(): Promise<void> {
    return this.run('open the database', async () => undefined);
  }

  async loadRecent(conversationId: string): Promise<RecentConversation> {
    return this.run(
      'load a conversation',
      async (db) => {
        const rows = rowsOf<RecentRow>(
          await db.raw(LOAD_RECENT, [conversationId, conversationId, conversationId]),
        );
        const head = rows[0];
        if (!head || Number(head.seq) !== -1) return this.withoutSnapshot(conversationId, rows);
        const count = Number(head.event_count);
        const events = rows.slice(1);
        const snapshot = this.readSnapshot(conversationId, head.data, count);
        // the event before the snapshot proves the log reaches it (a log cut short by hand would not)
        const reached = count === 0 || Number(events[0]?.seq) === count - 1;
        if (!snapshot || !reached) {
          if (!reached)
            this.logger.warn(
              { conversationId, snapshotCount: count },
              'tracker snapshot ahead of the event log: ignored',
            );
          return this.withoutSnapshot(conversationId, await this.eventRows(db, conversationId));
        }
        const after = eventsOfRows(conversationId, count === 0 ? events : events.slice(1), count);
        return { eventCount: count + after.length, snapshot, eventsAfterSnapshot: after };
      },
      { retry: true },
    );
  }

  async loadAll(conversationId: string): Promise<readonly Event[]> {
    return this.run(
      'load a conversation',
      async (db) => eventsOfRows(conversationId, await this.eventRows(db, conversationId), 0),
      { retry: true },
    );
  }

  async append(
    conversationId: string,
    events: readonly Event[],
    options: { readonly expectedCount: number; readonly snapshot?: TrackerSnapshot },
  ): Promise<void> {
    checkConversationId(conversationId);
    const { expectedCount, snapshot } = options;
    if (!Number.isInteger(expectedCount) || expectedCount < 0)
      throw new AppError({
        code: 'INTERNAL',
        message: `expectedCount must be a count, not ${expectedCount}`,
      });
    const total = expectedCount + events.length;
    const rows = events.map((event, index) => eventRow(conversationId, expectedCount + index, event));
    await this.run('append events', async (db) => {
      try {
        await db.transaction(async (trx) => {
          for (let start = 0; start < rows.length; start += INSERT_CHUNK)
            await trx('events').insert(rows.slice(start, start + INSERT_CHUNK));
          if (snapshot && snapshot.eventCount === total)
            await this.saveSnapshot(trx, conversationId, snapshot);
          await this.checkCount(trx, conversationId, expectedCount, total);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(conversationId, expectedCount);
        throw error;
      }
    });
  }

  async remove(conversationId: string): Promise<void> {
    await this.run('remove a conversation', (db) =>
      db.transaction(async (trx) => {
        await trx('events').where('sender_id', conversationId).delete();
        await trx('tracker_snapshots').where('sender_id', conversationId).delete();
      }),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.destroy();
  }

  private async run<T>(
    operation: string,
    work: (db: Knex) => Promise<T>,
    options: { retry?: boolean } = {},
  ): Promise<T> {
    if (this.closed)
      throw new AppError({
        code: 'STORE_UNAVAILABLE',
        message: `The tracker store (${this.describe()}) is closed.`,
      });
    try {
      await this.ensureReady();
      return await work(this.db);
    } catch (error) {
      if (isMissingTable(error)) this.ready = undefined;
      // a read that met a connection the server had closed gets one more try on a fresh one (not one
      // that timed out: the database is not answering, and the turn should fail now, not in twice the time)
      const lost = (isConnectionError(error) && !isTimeout(error)) || isMissingTable(error);
      if (options.retry && lost && !this.closed) {
        this.logger.warn({ operation, error: String(error) }, 'tracker store connection lost: retrying once');
        try {
          await this.ensureReady();
          return await work(this.db);
        } catch (second) {
          throw storeError(second, this.label(), operation);
        }
      }
      throw storeError(error, this.label(), operation);
    }
  }

  private label(): string {
    return `tracker store (${this.describe()})`;
  }

  private ensureReady(): Promise<void> {
    this.ready ??= this.initialise().catch((error: unknown) => {
      this.ready = undefined;
      throw storeError(error, this.label(), 'open the database');
    });
    return this.ready;
  }

  private async initialise(): Promise<void> {
    const target = this.target;
    if (target.dialect === 'postgresql') {
      if (await ensurePostgresDatabase(target, this.limits))
        this.logger.info({ database: target.database }, 'created the tracker store database (login_db)');
      await assertSchemaExists(this.db, target);
    } else {
      ensureSqliteFolder(target);
    }
    // a migration may rightly keep a connection silent for long (a big table, another process's
    // migration lock): it gets its own connection without the silence timeout
    const migrator =
      target.dialect === 'postgresql'
        ? openKnex(target, { ...this.limits, poolSize: 1, silenceTimeoutMs: 0 }, this.logger)
        : this.db;
    let applied: string[];
    try {
      applied = await migrate(migrator, target.dialect, { now: this.now });
    } finally {
      if (migrator !== this.db) await migrator.destroy();
    }
    if (applied.length > 0)
      this.logger.info({ store: this.describe(), migrations: applied }, 'tracker store schema migrated');
  }

  private async eventRows(db: Knex, conversationId: string): Promise<StoredEventRow[]> {
    return db('events').select('seq', 'data', 'timestamp').where('sender_id', conversationId).orderBy('seq');
  }

  private withoutSnapshot(conversationId: string, rows: readonly StoredEventRow[]): RecentConversation {
    const events = eventsOfRows(conversationId, rows, 0);
    return { eventCount: events.length, eventsAfterSnapshot: events };
  }

  private readSnapshot(
    conversationId: string,
    data: string | null,
    count: number,
  ): TrackerSnapshot | undefined {
    let snapshot: TrackerSnapshot | undefined;
    try {
      snapshot = snapshotFromJson(JSON.parse(data ?? 'null'));
    } catch {
      snapshot = undefined;
    }
    if (snapshot?.eventCount === count) return snapshot;
    this.logger.info(
      { conversationId },
      'tracker snapshot of another format or version: replaying the events',
    );
    return undefined;
  }

  private async saveSnapshot(trx: Knex.Transaction, conversationId: string, snapshot: TrackerSnapshot) {
    await trx('tracker_snapshots')
      .insert({
        sender_id: conversationId,
        event_count: snapshot.eventCount,
        data: JSON.stringify(snapshotToJson(snapshot)),
        updated: this.now(),
      })
      .onConflict('sender_id')
      .merge();
  }

  private async checkCount(trx: Knex.Transaction, conversationId: string, expected: number, total: number) {
    const [row] = rowsOf<{ last: number | string | null; predecessor: number | string }>(
      await trx.raw(LAST_SEQ, [conversationId, conversationId, expected - 1]),
    );
    const last = row?.last === null || row?.last === undefined ? -1 : Number(row.last);
    const reachesExpected = expected === 0 || Number(row?.predecessor) === 1;
    if (last !== total - 1 || !reachesExpected) throw conflict(conversationId, expected);
  }
}

function rowsOf<T>(result: unknown): T[] {
  // pg answers {rows}, better-sqlite3 the rows themselves
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

function conflict(conversationId: string, expectedCount: number): AppError {
  return new AppError({
    code: 'TRACKER_CONFLICT',
    message: `Conversation '${conversationId}' no longer has the ${expectedCount} events this turn loaded: another turn stored events first.`,
    details: { conversationId, expectedCount },
  });
}

function checkConversationId(conversationId: string): void {
  // VARCHAR(255) counts characters (code points), not UTF-16 units
  const length = [...conversationId].length;
  if (length > 0 && length <= MAX_CONVERSATION_ID_LENGTH) return;
  throw new AppError({
    code: 'CONVERSATION_ID_INVALID',
    message: `A conversation id must have 1 to ${MAX_CONVERSATION_ID_LENGTH} characters (Rasa's sender_id column), not ${length}.`,
    details: { length },
  });
}
