// A fresh PostgreSQL database for one benchmark run, dropped afterwards; undefined (with a message) when
// PostgreSQL cannot be reached, so that the other rows still run.
import { performance } from 'node:perf_hooks';
import pg from 'pg';

export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function postgresDatabase(label) {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    console.error(`PostgreSQL at ${POSTGRES_URL} is unreachable (${error.message}): its rows are skipped.`);
    return undefined;
  }
  const name = `parley_bench_${label}_${process.pid}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  const drop = async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
  const config = {
    type: 'sql',
    dialect: 'postgresql',
    url: url.hostname,
    port: Number(url.port || 5432),
    db: name,
    username: decodeURIComponent(url.username || 'postgres'),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
  };
  url.pathname = `/${name}`;
  return { config, drop, url: url.toString() };
}

/**
 * The floor under a durable turn: the median time of `count` one-row INSERTs, each its own committed
 * transaction (so each waits for PostgreSQL's WAL flush), from a client on this machine.
 */
export async function commitLatency(url, count = 200) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE TABLE IF NOT EXISTS bench_commit (id SERIAL PRIMARY KEY, data TEXT)');
    const times = [];
    for (let index = 0; index < count; index += 1) {
      const started = performance.now();
      await client.query('INSERT INTO bench_commit (data) VALUES ($1)', ['x'.repeat(200)]);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  } finally {
    await client.query('DROP TABLE IF EXISTS bench_commit').catch(() => undefined);
    await client.end();
  }
}
