/**
 * Rasa's SQLEventBroker: each event a row of a table `events` (id, sender_id, data = the event JSON
 * with sender_id), in SQLite (default file events.db) or PostgreSQL, created when absent. A batch is
 * one multi-row INSERT, so it commits whole and its ids keep the order of the events.
 *
 * Rasa's tracker store also names its table `events`, with other columns: the two cannot share a
 * database (in Rasa the broker's inserts then fail). Parley refuses that at start-up, whichever of the
 * two made the table first: here when the table has the tracker store's columns, in the tracker
 * store's migrations when it has the broker's (docs/event-brokers.md).
 */
import type { Knex } from 'knex';
import { AppError } from '../../core/errors.js';
import type { StoreLogger } from '../store-logger.js';
import { SILENT_STORE_LOGGER } from '../store-logger.js';
import { DEFAULT_LIMITS, assertSchemaExists, ensureSqliteFolder, openKnex } from '../sql/sql-connection.js';
import { storeError } from '../sql/sql-errors.js';
import type { SqlTarget } from '../sql/sql-target.js';
import type { BrokerMessage, BrokerTransport } from './buffered-event-broker.js';

export const BROKER_TABLE = 'events';

const CREATE_TABLE = {
  // INTEGER PRIMARY KEY is SQLite's rowid: ids grow with each insert, as SQLAlchemy's Integer key
  sqlite: `CREATE TABLE IF NOT EXISTS ${BROKER_TABLE} (
    id INTEGER NOT NULL PRIMARY KEY,
    sender_id VARCHAR(255),
    data TEXT
  )`,
  postgresql: `CREATE TABLE IF NOT EXISTS ${BROKER_TABLE} (
    id SERIAL NOT NULL PRIMARY KEY,
    sender_id VARCHAR(255),
    data TEXT
  )`,
};

/** columns only the tracker store's `events` table has */
const TRACKER_COLUMNS = ['type_name', 'seq'];

export class SqlBrokerTransport implements BrokerTransport {
  readonly target: SqlTarget;
  private readonly db: Knex;
  private ready: Promise<void> | undefined;

  constructor(options: { target: SqlTarget; logger?: StoreLogger }) {
    this.target = options.target;
    const logger = options.logger ?? SILENT_STORE_LOGGER;
    // two connections: one insert at a time is all the broker does
    this.db = openKnex(options.target, { ...DEFAULT_LIMITS, poolSize: 2 }, logger);
  }

  describe(): string {
    return `SQL ${this.target.description} (table ${BROKER_TABLE})`;
  }

  async connect(): Promise<void> {
    this.ready ??= this.prepare().catch((error: unknown) => {
      this.ready = undefined;
      throw error instanceof AppError
        ? error
        : storeError(error, `event broker (${this.describe()})`, 'open');
    });
    await this.ready;
  }

  async send(batch: readonly BrokerMessage[]): Promise<void> {
    await this.connect();
    const rows = batch.map((message) => ({ sender_id: message.senderId, data: message.body }));
    try {
      await this.db(BROKER_TABLE).insert(rows);
    } catch (error) {
      // the table may have been dropped: check it again on the next attempt
      this.ready = undefined;
      throw storeError(error, `event broker (${this.describe()})`, 'insert events');
    }
  }

  async disconnect(): Promise<void> {
    await this.db.destroy();
  }

  private async prepare(): Promise<void> {
    if (this.target.dialect === 'sqlite') ensureSqliteFolder(this.target);
    else await assertSchemaExists(this.db, this.target);
    await this.db.raw(CREATE_TABLE[this.target.dialect]);
    const columns = Object.keys(await this.db.table(BROKER_TABLE).columnInfo());
    const trackerColumns = TRACKER_COLUMNS.filter((column) => columns.includes(column));
    if (trackerColumns.length === 0) return;
    throw new AppError({
      code: 'STORE_CONFIG_INVALID',
      message: `The table '${BROKER_TABLE}' of ${this.target.description} is a tracker store's (it has ${trackerColumns.join(', ')}), not the SQL event broker's: Rasa's tracker store and SQL event broker both name their table 'events', so they cannot share a database. Give event_broker another database (db: events.db by default).`,
      details: { table: BROKER_TABLE, trackerColumns },
    });
  }
}
