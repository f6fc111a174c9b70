/**
 * Versioned schema migrations, recorded in `parley_migrations`. Version 1 is Rasa's own `events` table,
 * created only when absent, so a database Rasa made is upgraded in place by the same steps as a new
 * one. All pending migrations run in one transaction, under a lock that makes parallel starts safe
 * (PostgreSQL: an advisory transaction lock; SQLite: the write lock, taken by the first statement).
 */
import type { Knex } from 'knex';
import { AppError } from '../../core/errors.js';
import {
  A2A_LAST_HOLDER_COLUMN,
  A2A_OPEN_TASKS_INDEX,
  A2A_TASK_TABLES,
  A2A_WAITING_COLUMN,
} from './a2a-task-tables.js';
import { APPEND_AND_UNLOCK_FUNCTION, LOCK_AND_LOAD_FUNCTION } from './postgres-statements.js';

export type Dialect = 'sqlite' | 'postgresql';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** statements run in order; none may contain `?` (knex would read it as a binding) */
  readonly statements: Readonly<Record<Dialect, readonly string[]>>;
}

const both = (statements: readonly string[]): Record<Dialect, readonly string[]> => ({
  sqlite: statements,
  postgresql: statements,
});

/** Rasa's SQLTrackerStore table exactly as SQLAlchemy creates it (Integer id: SERIAL on PostgreSQL). */
const rasaEventsTable = (idType: string): readonly string[] => [
  `CREATE TABLE IF NOT EXISTS events (
    id ${idType} NOT NULL,
    sender_id VARCHAR(255) NOT NULL,
    type_name VARCHAR(255) NOT NULL,
    timestamp FLOAT,
    intent_name VARCHAR(255),
    action_name VARCHAR(255),
    data TEXT,
    PRIMARY KEY (id)
  )`,
  'CREATE INDEX IF NOT EXISTS ix_events_sender_id ON events (sender_id)',
];

/** Numbers the events Rasa wrote before this migration, per conversation, in Rasa's order (by id). */
const BACKFILL_SEQ = `UPDATE events SET seq = numbered.position
  FROM (SELECT id, row_number() OVER (PARTITION BY sender_id ORDER BY id) - 1 AS position FROM events) AS numbered
  WHERE events.id = numbered.id`;

/**
 * Migration 10, PostgreSQL 14 and later when built with lz4: the JSON written at every turn (a task, the
 * answer a replayed message gets, a conversation's snapshot) is compressed with lz4 when PostgreSQL moves
 * it out of line (over ~2 KB) instead of pglz, which compresses several times slower. A2A on PostgreSQL,
 * three alternated pairs: PostgreSQL's CPU 1,785 / 1,964 / 1,951 → 1,684 / 1,794 / 1,769 µs a message,
 * 516 / 467 / 477 → 536 / 500 / 541 messages/s (bench/README.md). Values written before stay as they
 * are (each says how it is compressed). Rasa's `events` table is left as Rasa made it. Elsewhere the
 * statement does nothing; so does a user who does not own the tables (a warning in PostgreSQL's log):
 * the compression is a saving, not something to refuse a start over.
 */
const JSON_COLUMNS_LZ4 = `DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings
      WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) THEN
    ALTER TABLE a2a_tasks ALTER COLUMN data SET COMPRESSION lz4;
    ALTER TABLE a2a_replays ALTER COLUMN answer SET COMPRESSION lz4;
    ALTER TABLE tracker_snapshots ALTER COLUMN data SET COMPRESSION lz4;
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'parley: the JSON columns keep their compression (%)', SQLERRM;
END $$`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'rasa events table',
    statements: { sqlite: rasaEventsTable('INTEGER'), postgresql: rasaEventsTable('SERIAL') },
  },
  {
    // `seq` is the event's position in its conversation. The unique (sender_id, seq) index is what makes
    // appends race-safe across processes: two writers that loaded the same count insert the same seq,
    // and the database lets exactly one of them commit. It also serves "events after the snapshot".
    // Rows inserted without a seq (by Rasa, sharing the database) are numbered by a trigger.
    version: 2,
    name: 'events seq',
    statements: {
      sqlite: [
        'ALTER TABLE events ADD COLUMN seq INTEGER',
        BACKFILL_SEQ,
        'CREATE UNIQUE INDEX ix_events_sender_id_seq ON events (sender_id, seq)',
        `CREATE TRIGGER events_assign_seq AFTER INSERT ON events WHEN NEW.seq IS NULL BEGIN
          UPDATE events SET seq = (SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE sender_id = NEW.sender_id)
          WHERE id = NEW.id;
        END`,
      ],
      postgresql: [
        'ALTER TABLE events ADD COLUMN seq INTEGER',
        BACKFILL_SEQ,
        'ALTER TABLE events ALTER COLUMN seq SET NOT NULL',
        'CREATE UNIQUE INDEX ix_events_sender_id_seq ON events (sender_id, seq)',
        `CREATE FUNCTION parley_events_assign_seq() RETURNS trigger LANGUAGE plpgsql AS $body$
        BEGIN
          EXECUTE format('SELECT COALESCE(MAX(seq), -1) + 1 FROM %I.%I WHERE sender_id = $1',
                         TG_TABLE_SCHEMA, TG_TABLE_NAME)
            INTO NEW.seq USING NEW.sender_id;
          RETURN NEW;
        END
        $body$`,
        `CREATE TRIGGER events_assign_seq BEFORE INSERT ON events FOR EACH ROW
          WHEN (NEW.seq IS NULL) EXECUTE FUNCTION parley_events_assign_seq()`,
      ],
    },
  },
  {
    version: 3,
    name: 'tracker snapshots',
    statements: both([
      `CREATE TABLE tracker_snapshots (
        sender_id VARCHAR(255) NOT NULL PRIMARY KEY,
        event_count INTEGER NOT NULL,
        data TEXT NOT NULL,
        updated FLOAT NOT NULL
      )`,
    ]),
  },
  {
    // Rasa's index on sender_id alone duplicates the leading column of ix_events_sender_id_seq, which
    // answers the same lookups (Rasa's too); keeping both cost a third index entry per event, up to
    // half of a turn's write on PostgreSQL (bench/README.md)
    version: 4,
    name: 'no second sender_id index',
    statements: both(['DROP INDEX IF EXISTS ix_events_sender_id']),
  },
  {
    // the A2A task store's contexts, tasks, replay entries and push configs (a2a-task-tables.ts)
    version: 5,
    name: 'a2a task store',
    statements: A2A_TASK_TABLES,
  },
  {
    // a turn's lock and load in one round trip (postgres-turn-session.ts); SQLite locks in process
    version: 6,
    name: 'lock and load function',
    statements: { sqlite: [], postgresql: [LOCK_AND_LOAD_FUNCTION] },
  },
  {
    // a turn's append frees its lock as it commits (postgres-turn-session.ts)
    version: 7,
    name: 'append and unlock function',
    statements: { sqlite: [], postgresql: [APPEND_AND_UNLOCK_FUNCTION] },
  },
  {
    // PostgreSQL finds an idle context at the cap without scanning every task (a2a-task-tables.ts);
    // SQLite looks up each candidate's tasks by context already, and would only pay for the index
    version: 8,
    name: 'a2a open tasks index',
    statements: { sqlite: [], postgresql: [A2A_OPEN_TASKS_INDEX] },
  },
  {
    // whose claim a context had last: a turn that follows its own process's may skip the read
    version: 9,
    name: 'a2a context last holder',
    statements: both([A2A_LAST_HOLDER_COLUMN]),
  },
  {
    // the JSON of every turn compressed with lz4 where PostgreSQL has it (JSON_COLUMNS_LZ4)
    version: 10,
    name: 'lz4 for the json columns',
    statements: { sqlite: [], postgresql: [JSON_COLUMNS_LZ4] },
  },
  {
    // the search for an idle context at the cap skips the contexts waiting for input (a2a-task-tables.ts);
    // SQLite's search under its write lock reads the tasks, as PostgreSQL's slow way does
    version: 11,
    name: 'a2a waiting contexts',
    statements: { sqlite: [], postgresql: A2A_WAITING_COLUMN },
  },
];

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS parley_migrations (
  version INTEGER NOT NULL PRIMARY KEY,
  name VARCHAR(255) NOT NULL,
  applied_at FLOAT NOT NULL
)`;

/** pg_advisory_xact_lock key of schema migrations (an arbitrary constant of ours) */
export const MIGRATION_LOCK_KEY = '7306542203916405251';

const RASA_COLUMNS = ['id', 'sender_id', 'type_name', 'timestamp', 'intent_name', 'action_name', 'data'];

/** Applies the pending migrations; returns their names. */
export async function migrate(
  db: Knex,
  dialect: Dialect,
  options: { now: () => number; migrations?: readonly Migration[] },
): Promise<string[]> {
  const migrations = options.migrations ?? MIGRATIONS;
  if (dialect === 'sqlite') await db.raw(MIGRATIONS_TABLE);
  return db.transaction(async (trx) => {
    if (dialect === 'postgresql') {
      await trx.raw('SELECT pg_advisory_xact_lock(?::bigint)', [MIGRATION_LOCK_KEY]);
      await trx.raw(MIGRATIONS_TABLE);
    } else {
      // a write first: the transaction then holds SQLite's write lock and sees every migration that
      // another process committed before it (a read first could leave it with a stale snapshot)
      await trx.raw('DELETE FROM parley_migrations WHERE version < 0');
    }
    const rows: { version: number | string }[] = await trx('parley_migrations').select('version');
    const applied = new Set(rows.map((row) => Number(row.version)));
    assertNotNewer(applied, migrations);
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      if (migration.version === 2) await assertTrackerEventsTable(trx);
      for (const statement of migration.statements[dialect]) await trx.raw(statement);
      await trx('parley_migrations').insert({
        version: migration.version,
        name: migration.name,
        applied_at: options.now(),
      });
      done.push(migration.name);
    }
    return done;
  });
}

function assertNotNewer(applied: ReadonlySet<number>, migrations: readonly Migration[]): void {
  const known = Math.max(...migrations.map((migration) => migration.version));
  const newest = Math.max(0, ...applied);
  if (newest <= known) return;
  throw new AppError({
    code: 'STORE_CONFIG_INVALID',
    message: `The tracker store database has schema version ${newest}, newer than this Parley knows (${known}); upgrade Parley instead of writing to it with an older one.`,
    details: { databaseVersion: newest, knownVersion: known },
  });
}

/** The SQL event broker of Rasa also wants a table called `events`, with other columns: refuse it. */
async function assertTrackerEventsTable(trx: Knex.Transaction): Promise<void> {
  const columns = Object.keys(await trx.table('events').columnInfo());
  const missing = RASA_COLUMNS.filter((column) => !columns.includes(column));
  if (missing.length === 0) return;
  throw new AppError({
    code: 'STORE_CONFIG_INVALID',
    message: `The table 'events' in this database is not a Rasa tracker store table (it lacks ${missing.join(', ')}); is it the SQL event broker's? Point the tracker store at another database.`,
    details: { missingColumns: missing },
  });
}
