import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AppError } from '../../src/core/errors.js';
import { createLockStore, createTrackerStore } from '../../src/stores/factory.js';
import { PostgresLockStore } from '../../src/stores/locks/postgres-lock-store.js';
import { RedisLockStore } from '../../src/stores/locks/redis-lock-store.js';
import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import type { PostgresTarget } from '../../src/stores/sql/postgres-target.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import type { TestDatabase } from '../support/postgres.js';
import { createTestDatabase, requirePostgres } from '../support/postgres.js';
import { turnEvents } from './tracker-store-contract.js';

const root = mkdtempSync(join(tmpdir(), 'parley-factory-'));
const closers: (() => Promise<void>)[] = [];

function tracker(config: unknown, env: Record<string, string> = {}) {
  const store = createTrackerStore({ config, projectRoot: root, env });
  closers.push(async () => store.close?.());
  return store;
}

function lock(config: unknown, env: Record<string, string> = {}) {
  const store = createLockStore({ config, projectRoot: root, env });
  closers.push(async () => store.close?.());
  return store;
}

function problemsOf(create: () => unknown): string[] {
  try {
    create();
  } catch (error) {
    expect((error as AppError).code).to.equal('STORE_CONFIG_INVALID');
    return ((error as AppError).details as { problems: string[] }).problems;
  }
  throw new Error('expected STORE_CONFIG_INVALID');
}

describe('store factory', () => {
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  describe('createTrackerStore', () => {
    it('defaults to a SQLite file in the project when endpoints.yml has no tracker_store', async () => {
      const store = tracker(undefined);
      expect(store).to.be.instanceOf(SqlTrackerStore);
      expect(store.describe()).to.equal(`sqlite at ${join(root, '.parley', 'tracker.db')}`);
      await store.append('a', turnEvents('a', 0), { expectedCount: 0 });
      expect(existsSync(join(root, '.parley', 'tracker.db'))).to.equal(true);
      expect(tracker(null).describe()).to.equal(`sqlite at ${join(root, '.parley', 'tracker.db')}`);
    });

    it('names the SQLite file by its absolute path, also for a project given relative to the current folder', () => {
      const store = createTrackerStore({ config: undefined, projectRoot: 'bots/x', env: {} });
      // not opened: nothing is created under the current folder
      expect(store.describe()).to.equal(`sqlite at ${resolve('bots', 'x', '.parley', 'tracker.db')}`);
      expect(store.describe()).to.not.contain('./');
    });

    it('keeps conversations in memory for type in_memory / memory, in any case', () => {
      for (const type of ['in_memory', 'memory', 'In_Memory']) {
        const store = tracker({ type });
        expect(store).to.be.instanceOf(MemoryTrackerStore);
        expect(store.describe()).to.match(/in memory/);
      }
    });

    it("reads Rasa's sql keys for SQLite (db relative to the project; rasa.db by default)", () => {
      expect(tracker({ type: 'SQL', dialect: 'sqlite', db: 'data/conversations.db' }).describe()).to.equal(
        `sqlite at ${join(root, 'data', 'conversations.db')}`,
      );
      expect(tracker({ type: 'sql' }).describe()).to.equal(`sqlite at ${join(root, 'rasa.db')}`);
      expect(tracker({ type: 'sql', url: 'sqlite:///other.db' }).describe()).to.equal(
        `sqlite at ${join(root, 'other.db')}`,
      );
      expect(tracker({ type: 'sql', db: '/var/lib/bot/t.db' }).describe()).to.equal(
        'sqlite at /var/lib/bot/t.db',
      );
    });

    it("reads Rasa's sql keys for PostgreSQL: host:port in url, credentials, query, schema", () => {
      const store = tracker({
        type: 'sql',
        dialect: 'postgresql',
        url: 'db.example.com:6543',
        db: 'bot',
        username: 'rasa',
        password: 'p@ss word',
        query: { sslmode: 'require' },
        schema: 'conversations',
      }) as SqlTrackerStore;
      expect(store.describe()).to.equal('postgresql at db.example.com:6543/bot (schema conversations)');
      const target = store.target as PostgresTarget;
      const url = new URL(target.url);
      expect([url.hostname, url.port, url.pathname, url.searchParams.get('sslmode')]).to.deep.equal([
        'db.example.com',
        '6543',
        '/bot',
        'require',
      ]);
      expect(decodeURIComponent(url.password)).to.equal('p@ss word');
      expect(target.schema).to.equal('conversations');
    });

    it('takes port from env-interpolated strings, a whole URL as it is, and POSTGRESQL_SCHEMA', () => {
      const fromParts = tracker({ type: 'sql', dialect: 'postgres', url: 'pg', port: '5433', db: 'b' });
      expect(fromParts.describe()).to.equal('postgresql at pg:5433/b');
      const whole = tracker(
        { type: 'sql', url: 'postgresql+psycopg2://u:p@pg.internal/prod' },
        { POSTGRESQL_SCHEMA: 'bots' },
      );
      expect(whole.describe()).to.equal('postgresql at pg.internal:5432/prod (schema bots)');
    });

    it('lists every problem of a block at once', () => {
      const problems = problemsOf(() =>
        tracker({
          type: 'sql',
          dialect: 'postgresql',
          port: 'abc',
          query: 'sslmode=require',
          schema: 'my schema',
        }),
      );
      expect(problems).to.have.length(4);
      expect(problems.join('\n'))
        .to.match(/port/)
        .and.match(/query/)
        .and.match(/schema/)
        .and.match(/db/);
      expect(problemsOf(() => tracker({ type: 'sql', dialect: 'oracle+cx_oracle' }))[0]).to.match(/oracle/);
      expect(problemsOf(() => tracker({ type: 'sql' }, { SQL_POOL_SIZE: 'many' }))[0]).to.match(
        /SQL_POOL_SIZE/,
      );
      expect(problemsOf(() => tracker({ type: 'sql', login_db: 'postgres' }))[0]).to.match(/login_db/);
    });

    it('refuses stores Parley does not implement, a block without type, and a block that is not a map', () => {
      expect(problemsOf(() => tracker({ type: 'redis', url: 'localhost' }))[0]).to.match(
        /'redis' is not supported/,
      );
      expect(problemsOf(() => tracker({ type: 'addons.custom.MyStore' }))[0]).to.match(/Python module/);
      expect(problemsOf(() => tracker({ url: 'db.example.com', db: 'bot' }))[0]).to.match(/type is required/);
      expect(problemsOf(() => tracker('sql'))[0]).to.match(/must be a map/);
    });

    it('warns about keys it does not use', () => {
      const warnings: unknown[] = [];
      const logger = { info() {}, warn: (fields: unknown) => warnings.push(fields), error() {} };
      createTrackerStore({
        config: { type: 'in_memory', record_exp: 30 },
        projectRoot: root,
        logger,
        env: {},
      });
      expect(warnings).to.deep.equal([{ section: 'tracker_store', keys: ['record_exp'] }]);
    });
  });

  describe('createLockStore', () => {
    it('serialises turns in memory by default and for type in_memory', () => {
      expect(lock(undefined)).to.be.instanceOf(MemoryLockStore);
      expect(lock({ type: 'IN_MEMORY' })).to.be.instanceOf(MemoryLockStore);
      expect(lock(undefined).describe()).to.match(/in memory/);
    });

    it("reads Rasa's redis keys (db 0; 1 for concurrent_redis) and our lifetime / wait_timeout", () => {
      const redis = lock({
        type: 'redis',
        url: 'cache.internal',
        port: 6380,
        password: 's',
        key_prefix: 'bank',
      });
      expect(redis).to.be.instanceOf(RedisLockStore);
      expect(redis.describe()).to.equal('redis at cache.internal:6380/0');
      expect((redis as RedisLockStore).connection.keyPrefix).to.equal('bank:');
      expect(lock({ type: 'concurrent_redis', host: 'cache' }).describe()).to.equal('redis at cache:6379/1');
      expect(lock({ type: 'redis', host: 'cache', lifetime: 5, wait_timeout: '20' })).to.be.instanceOf(
        RedisLockStore,
      );
    });

    it('lists every problem of a redis block at once', () => {
      const problems = problemsOf(() =>
        lock({
          type: 'redis',
          url: 'a',
          host: 'b',
          username: 'u',
          key_prefix: 'not ok!',
          deployment_mode: 'cluster',
          wait_timeout: -1,
          use_ssl: true,
          ssl_ca_certs: 'missing-ca.pem',
        }),
      );
      expect(problems).to.have.length(6);
      expect(problemsOf(() => lock({ type: 'redis' }, { TICKET_LOCK_LIFETIME: 'x' }))[0]).to.match(
        /TICKET_LOCK_LIFETIME/,
      );
    });

    it('builds PostgreSQL advisory locks from the same keys as the SQL tracker store', () => {
      const store = lock({ type: 'postgresql', url: 'pg:5433', db: 'bot', wait_timeout: 5 });
      expect(store).to.be.instanceOf(PostgresLockStore);
      expect(store.describe()).to.equal('postgresql advisory locks at pg:5433/bot');
    });

    it('refuses lock stores Parley does not implement', () => {
      expect(problemsOf(() => lock({ type: 'sql' }))[0]).to.match(/'sql' is not supported/);
      expect(problemsOf(() => lock({ type: 'my.LockStore' }))[0]).to.match(/Python module/);
      expect(problemsOf(() => lock({ host: 'x' }))[0]).to.match(/type is required/);
    });
  });

  describe('with a real PostgreSQL', () => {
    let database: TestDatabase | undefined;
    before(async function () {
      await requirePostgres(this);
      database = await createTestDatabase();
    });
    after(async () => {
      await database?.drop();
    });

    it('opens working tracker and lock stores from endpoints.yml-style blocks', async () => {
      const block = {
        dialect: 'postgresql',
        url: '127.0.0.1',
        port: '5432',
        db: database?.name,
        username: 'postgres',
      };
      const store = tracker({ type: 'sql', ...block });
      await store.append('a', turnEvents('a', 0), { expectedCount: 0 });
      expect(await store.loadAll('a')).to.deep.equal(turnEvents('a', 0));
      const locks = lock({ type: 'postgresql', ...block });
      expect(await locks.withLock('a', async () => 'locked')).to.equal('locked');
    });
  });
});
