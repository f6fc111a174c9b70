/**
 * The SQL tracker store (SQLite, the embedded default, and PostgreSQL) on Rasa's `events` table plus
 * a `seq` column and a `tracker_snapshots` table (see migrations.ts and docs/stores.md).
 *
 * Loading reads the snapshot and the events after it in one statement, so a turn costs the same at
 * turn 1,000 as at turn 10. On SQLite a conversation whose last turn this connection wrote is not read
 * at all while no other connection has committed since (`snapshot-cache.ts`). Appending writes first
 * and checks after, all or nothing: the events go in at seq = expectedCount…, the unique (sender_id,
 * seq) index rejects a second writer that loaded the same count, and a check that the event before
 * them exists rejects a writer whose count was too high. Either way nothing is written and the turn
 * gets TRACKER_CONFLICT. SQLite does it in a savepoint of prepared statements within the group commit
 * of the database's writes (sqlite-statements.ts, sqlite-write-batch.ts), PostgreSQL in one prepared
 * statement, batched with concurrent turns' (postgres-append-batch.ts), and an append of no events (a
 * snapshot alone) in a knex transaction.
 */
import type { Knex } from 'knex';
import { AppError } from '../../core/errors.js';
import { snapshotFromJson, snapshotToJson } from '../../core/events/snapshot-json.js';
import type { Event } from '../../core/events/types.js';
import { conversationPageLimit } from '../../core/ports.js';
import type {
  ConversationPage,
  ConversationPageRequest,
  LoadHint,
  RecentConversation,
  TrackerSnapshot,
  TrackerStore,
} from '../../core/ports.js';
import type { StoreLogger } from '../store-logger.js';
import { SILENT_STORE_LOGGER } from '../store-logger.js';
import { eventRow, eventsOfRows } from './event-rows.js';
import type { EventRow, SnapshotRow, StoredEventRow } from './event-rows.js';
import type { ConnectionLimits } from './sql-connection.js';
import { SqlDatabase } from './sql-database.js';
import type { RunOptions } from './sql-database.js';
import { PostgresAppendBatch } from './postgres-append-batch.js';
import { isUniqueViolation } from './sql-errors.js';
import type { SqlTarget } from './sql-target.js';
import { LAST_SEQ, SqliteStatements } from './sqlite-statements.js';
import type { LastSeqRow, SqliteAppend, SqliteConnection } from './sqlite-statements.js';
import { appendRows, loadAfterRows, loadRecentRows } from './postgres-statements.js';
import { PostgresKeptStates } from './postgres-kept-states.js';
import { checkConversationId, checkCount, conflict, rowsOf } from './sql-tracker-checks.js';
import type { PostgresConnection } from './postgres-statements.js';
import { markReleased, takePrefetched, turnSessionOf } from './postgres-turn-session.js';
import type { RecentRow } from './sqlite-statements.js';

export interface SqlTrackerStoreOptions {
  readonly target: SqlTarget;
  readonly logger?: StoreLogger;
  readonly limits?: Partial<ConnectionLimits>;
  /** seconds since the epoch, for the `updated` column and migration records */
  readonly now?: () => number;
}

export { MAX_CONVERSATION_ID_LENGTH } from './sql-tracker-checks.js';

export class SqlTrackerStore implements TrackerStore {
  readonly target: SqlTarget;
  /** the database, shared with the SQL A2A task store (which never closes it) */
  readonly database: SqlDatabase;
  private readonly logger: StoreLogger;
  private readonly now: () => number;
  /** per SQLite connection (knex may replace a broken one) */
  private readonly sqliteStatements = new WeakMap<SqliteConnection, SqliteStatements>();
  /** PostgreSQL: the states of the conversations this process wrote last (SQLite keeps them per connection) */
  private readonly keptStates = new PostgresKeptStates();
  private readonly appendBatch = new PostgresAppendBatch((work) => this.withPostgres(work));

  constructor(options: SqlTrackerStoreOptions) {
    this.target = options.target;
    this.logger = options.logger ?? SILENT_STORE_LOGGER;
    this.now = options.now ?? (() => Date.now() / 1000);
    this.database = new SqlDatabase(options);
  }

  /** "sqlite at /srv/bot/.parley/tracker.db", "postgresql at host:5432/db": for the startup log */
  describe(): string {
    return this.target.description;
  }

  /** Connects and migrates the schema; the first operation does it too, this only fails earlier. */
  open(): Promise<void> {
    return this.run('open the database', async () => undefined);
  }

  async loadRecent(conversationId: string, hint?: LoadHint): Promise<RecentConversation> {
    return this.run(
      'load a conversation',
      async (db) => {
        const known =
          this.target.dialect === 'postgresql'
            ? await this.loadKnownPostgres(conversationId, hint)
            : undefined;
        if (known) return known;
        const loaded =
          this.target.dialect === 'sqlite'
            ? await this.withSqlite(
                (statements) =>
                  statements.cachedSnapshot(conversationId) ?? statements.loadRecent(conversationId),
              )
            : await this.loadRecentPostgres(conversationId);
        if (!Array.isArray(loaded))
          return { eventCount: loaded.eventCount, snapshot: loaded, eventsAfterSnapshot: [] };
        const rows = loaded;
        const kept =
          this.target.dialect === 'postgresql' ? this.keptStates.fromRows(conversationId, rows) : undefined;
        if (kept) return kept;
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
    const current = snapshot && snapshot.eventCount === total ? snapshot : undefined;
    // the row is written now and then: a load that misses the state kept in memory folds the events after it
    const storedAt = this.keptStates.storedAt(conversationId);
    const snapshotRow =
      current && this.target.dialect === 'postgresql' && this.keptStates.shouldStore(conversationId, total)
        ? this.snapshotRow(conversationId, current)
        : undefined;
    this.forgetPrefetched(conversationId);
    this.keptStates.forget(conversationId);
    await this.run('append events', async (db) => {
      try {
        if (this.target.dialect === 'sqlite')
          await this.appendSqlite({
            conversationId,
            expectedCount,
            rows,
            current,
            snapshotRow: (state) => this.snapshotRow(conversationId, state),
            check: (row) => checkCount(row, conversationId, expectedCount, total),
          });
        else if (rows.length > 0) {
          await this.appendInOneStatement(conversationId, expectedCount, rows, snapshotRow);
          const keptAt = snapshotRow?.event_count ?? storedAt;
          const last = rows.at(-1);
          if (current && keptAt !== undefined && last)
            this.keptStates.keep(conversationId, current, keptAt, last.data);
        } else {
          await this.appendNoEvents(
            db,
            conversationId,
            expectedCount,
            current ? this.snapshotRow(conversationId, current) : undefined,
          );
          await this.forgetCached(conversationId);
        }
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(conversationId, expectedCount);
        throw error;
      }
    });
  }

  /**
   * PostgreSQL: the events, the snapshot and the check of the event before them in one round trip; on
   * the turn's lock connection, the same statement frees the lock.
   */
  private async appendInOneStatement(
    conversationId: string,
    expectedCount: number,
    rows: readonly EventRow[],
    snapshot: SnapshotRow | undefined,
  ): Promise<void> {
    const session = turnSessionOf(conversationId, this);
    const append = { conversationId, expectedCount, rows, snapshot };
    let inserted: number;
    if (session) {
      inserted = await appendRows(session.connection, { ...append, unlockKey: session.lockKey });
      markReleased(session);
    } else inserted = await this.appendBatch.append(append);
    if (inserted !== rows.length) throw conflict(conversationId, expectedCount);
  }

  /** An append of no events (a snapshot alone, or nothing but the count check): one transaction. */
  private async appendNoEvents(
    db: Knex,
    conversationId: string,
    expectedCount: number,
    snapshot: SnapshotRow | undefined,
  ): Promise<void> {
    await db.transaction(async (trx) => {
      if (snapshot) await trx('tracker_snapshots').insert(snapshot).onConflict('sender_id').merge();
      const [row] = rowsOf<LastSeqRow>(
        await trx.raw(LAST_SEQ, [conversationId, conversationId, expectedCount - 1]),
      );
      checkCount(row, conversationId, expectedCount, expectedCount);
    });
  }

  async remove(conversationId: string): Promise<void> {
    this.forgetPrefetched(conversationId);
    await this.run('remove a conversation', async (db) => {
      await this.forgetCached(conversationId);
      await db.transaction(async (trx) => {
        await trx('events').where('sender_id', conversationId).delete();
        await trx('tracker_snapshots').where('sender_id', conversationId).delete();
      });
      // an append may have run between the first forget and this removal
      await this.forgetCached(conversationId);
    });
  }

  async listConversations(page: ConversationPageRequest): Promise<ConversationPage> {
    const limit = conversationPageLimit(page.limit);
    const rows = await this.run(
      'list conversations',
      async (db) => {
        const query = db('events')
          .select('sender_id')
          .count({ event_count: '*' })
          .max({ latest: 'timestamp' })
          .groupBy('sender_id')
          .orderBy('sender_id')
          .limit(limit + 1);
        if (page.after !== undefined) query.where('sender_id', '>', page.after);
        return (await query) as { sender_id: string; event_count: number | string; latest: unknown }[];
      },
      { retry: true },
    );
    const conversations = rows.slice(0, limit).map((row) => ({
      conversationId: row.sender_id,
      eventCount: Number(row.event_count),
      latestEventTime: row.latest === null || row.latest === undefined ? undefined : Number(row.latest),
    }));
    const last = conversations.at(-1);
    return rows.length > limit && last ? { conversations, next: last.conversationId } : { conversations };
  }

  async close(): Promise<void> {
    await this.database.close();
  }

  private run<T>(operation: string, work: (db: Knex) => Promise<T>, options: RunOptions = {}): Promise<T> {
    return this.database.run(operation, work, options);
  }

  private async eventRows(db: Knex, conversationId: string): Promise<StoredEventRow[]> {
    if (this.target.dialect === 'sqlite')
      return this.withSqlite((statements) => statements.allEvents(conversationId));
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

  private snapshotRow(conversationId: string, snapshot: TrackerSnapshot): SnapshotRow {
    return {
      sender_id: conversationId,
      event_count: snapshot.eventCount,
      data: JSON.stringify(snapshotToJson(snapshot)),
      updated: this.now(),
    };
  }

  /**
   * Runs synchronous work on the SQLite connection of knex's one-connection pool, with statements
   * prepared once for that connection: knex's own queries wait until it is released.
   */
  private withSqlite<T>(work: (statements: SqliteStatements) => T): Promise<T> {
    return this.database.withSqlite((connection) => work(this.statementsOf(connection)));
  }

  private statementsOf(connection: SqliteConnection): SqliteStatements {
    let statements = this.sqliteStatements.get(connection);
    if (!statements) {
      statements = new SqliteStatements(connection);
      this.sqliteStatements.set(connection, statements);
    }
    return statements;
  }

  /** The rows the turn's lock statement read (postgres-turn-session.ts), or a read of its own. */
  private async loadRecentPostgres(conversationId: string): Promise<RecentRow[]> {
    const session = turnSessionOf(conversationId, this);
    const prefetched = session ? takePrefetched(session) : undefined;
    if (prefetched) return prefetched;
    return this.onTurnConnection(conversationId, (connection) => loadRecentRows(connection, conversationId));
  }

  /** On the connection holding the turn's lock when the lock store is joined, else on a pooled one. */
  private onTurnConnection<T>(
    conversationId: string,
    work: (connection: PostgresConnection) => Promise<T>,
  ): Promise<T> {
    const session = turnSessionOf(conversationId, this);
    return session ? work(session.connection) : this.withPostgres(work);
  }

  /** In the next group commit of the database's writes; the state is kept once it committed. */
  private async appendSqlite(append: SqliteAppend): Promise<void> {
    const committed = await this.database.sqliteWrite((connection) =>
      this.statementsOf(connection).append(append),
    );
    committed();
  }

  /** PostgreSQL: a load of only the events from the last one this process wrote, if it kept the state */
  private async loadKnownPostgres(
    conversationId: string,
    hint: LoadHint | undefined,
  ): Promise<RecentConversation | undefined> {
    // a turn holding the PostgreSQL lock has read the rows with it already
    if (turnSessionOf(conversationId, this)) return undefined;
    if (hint?.keptAt === 0) {
      this.keptStates.forget(conversationId);
      return { eventCount: 0, eventsAfterSnapshot: [] };
    }
    const from = this.keptStates.readFrom(conversationId);
    if (from === undefined) return undefined;
    const claimed = hint?.keptAt === undefined ? undefined : this.keptStates.at(conversationId, hint.keptAt);
    if (claimed) return claimed;
    const rows = await this.withPostgres((connection) => loadAfterRows(connection, conversationId, from));
    const known = this.keptStates.fromRows(conversationId, rows);
    if (!known) this.keptStates.forget(conversationId);
    return known;
  }

  /** A write through knex (not the prepared statements) makes a state kept in memory stale. */
  private async forgetCached(conversationId: string): Promise<void> {
    this.keptStates.forget(conversationId);
    if (this.target.dialect === 'sqlite')
      await this.withSqlite((statements) => statements.snapshots.delete(conversationId));
  }

  /** A write makes what the lock statement read stale. */
  private forgetPrefetched(conversationId: string): void {
    const session = turnSessionOf(conversationId, this);
    if (session) takePrefetched(session);
  }

  /** Runs named prepared statements on a connection of knex's pool (knex drops one that broke). */
  private withPostgres<T>(work: (connection: PostgresConnection) => Promise<T>): Promise<T> {
    return this.database.withPostgres(work);
  }
}
