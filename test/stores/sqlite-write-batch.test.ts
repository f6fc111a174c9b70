import { expect } from 'chai';
import { createRequire } from 'node:module';
import type { SqliteConnection } from '../../src/stores/sql/sqlite-statements.js';
import { SqliteWriteBatch } from '../../src/stores/sql/sqlite-write-batch.js';

/** what these tests use of a better-sqlite3 Database (the package ships no types) */
interface TestDatabase extends SqliteConnection {
  exec(source: string): void;
  pragma(source: string): unknown;
}

const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => TestDatabase;

function openDatabase(): TestDatabase {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE items (name TEXT PRIMARY KEY)');
  return db;
}

function names(db: TestDatabase): string[] {
  return (db.prepare('SELECT name FROM items ORDER BY name').all() as { name: string }[]).map(
    (row) => row.name,
  );
}

/** a batch on `db` counting the transactions it opens */
function batchOn(db: TestDatabase): { batch: SqliteWriteBatch; flushes: () => number } {
  let flushes = 0;
  const connection: SqliteConnection = db;
  const batch = new SqliteWriteBatch((work) => {
    flushes += 1;
    return Promise.resolve(work(connection));
  });
  return { batch, flushes: () => flushes };
}

const insert = (name: string) => (connection: SqliteConnection) =>
  connection.prepare('INSERT INTO items (name) VALUES (?)').run(name).changes;

describe('SqliteWriteBatch: group commit', () => {
  it('runs the writes asked for in one turn of the event loop in one transaction', async () => {
    const db = openDatabase();
    const { batch, flushes } = batchOn(db);
    const inside: boolean[] = [];
    const written = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        batch.write((connection) => {
          inside.push(connection.inTransaction);
          return insert(name)(connection);
        }),
      ),
    );
    expect(written).to.deep.equal([1, 1, 1]);
    expect(inside).to.deep.equal([true, true, true]);
    expect(flushes()).to.equal(1);
    expect(names(db)).to.deep.equal(['a', 'b', 'c']);
    expect(db.inTransaction).to.equal(false);
    await batch.write(insert('d'));
    expect(flushes()).to.equal(2);
  });

  it('rolls back a failing write alone, with everything it did', async () => {
    const db = openDatabase();
    const { batch } = batchOn(db);
    const outcomes = await Promise.allSettled([
      batch.write(insert('a')),
      batch.write((connection) => {
        insert('half')(connection);
        throw new Error('the check failed');
      }),
      // the primary key refuses a second 'a'
      batch.write(insert('a')),
      batch.write(insert('b')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).to.include('the check failed');
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).to.include('UNIQUE');
    expect(names(db)).to.deep.equal(['a', 'b']);
  });

  it('fails every write of a batch whose commit fails, and writes none of them', async () => {
    const db = openDatabase();
    db.exec('CREATE TABLE children (item TEXT REFERENCES items (name) DEFERRABLE INITIALLY DEFERRED)');
    db.pragma('foreign_keys = ON');
    const { batch } = batchOn(db);
    const outcomes = await Promise.allSettled([
      batch.write(insert('a')),
      // a deferred foreign key is checked at COMMIT: the whole transaction is refused there
      batch.write(
        (connection) => connection.prepare('INSERT INTO children (item) VALUES (?)').run('missing').changes,
      ),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['rejected', 'rejected']);
    expect(names(db)).to.deep.equal([]);
    expect(db.inTransaction).to.equal(false);
    await batch.write(insert('after'));
    expect(names(db)).to.deep.equal(['after']);
  });

  it('fails every write when the connection cannot be had', async () => {
    const batch = new SqliteWriteBatch(() => Promise.reject(new Error('no connection')));
    const outcomes = await Promise.allSettled([batch.write(() => 1), batch.write(() => 2)]);
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['rejected', 'rejected']);
  });
});
