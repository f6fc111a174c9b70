// REST benchmark: turns per second and latency through the whole server (HTTP, Express, the REST
// channel, the turn gate, the agent, the tracker store) on the bundled assistant, with the memory,
// SQLite and PostgreSQL tracker stores, next to a bare Express echo handler measured in the same run;
// then the per-turn latency of one long conversation on PostgreSQL, around turn 10 against around
// turn 1,000. Messages are direct payloads (no understanding model runs) and the bundled assistant's
// in-process actions run as they are, so the figures are the server's, the engine's and the store's.
//
// The servers run in this process; autocannon runs in a child process so that the load generator
// does not share the servers' event loop.
import autocannon from 'autocannon';
import express from 'express';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const LONG_TURNS = Number(process.env.BENCH_LONG_TURNS ?? 1000);
const LONG_CONVERSATIONS = Number(process.env.BENCH_LONG_CONVERSATIONS ?? 3);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const WINDOW = 20;
const TURNS_PER_CONVERSATION = 10;
const WEBHOOK = '/webhooks/rest/webhook';
// one cycle = two turns: start the balance flow (it asks which account), answer it (the flow ends)
const CYCLE = ['/check_balance', '/SetSlots(account_type=savings)'];
const EXPECTED = ['Which account would you like the balance for?', 'savings'];

const LOAD_FLAG = '--load-generator';
if (process.argv[2] === LOAD_FLAG) process.once('message', async (data) => process.send(await load(data)));
else await main();

/** In the child: one autocannon run; each connection talks to its own conversations, in order. */
async function load({ url, connections, duration, prefix, check }) {
  let conversations = 0;
  let wrong = 0;
  const result = await autocannon({
    url,
    connections,
    duration,
    // one entry per turn: autocannon keeps a connection's context across the entries of `requests` and
    // resets it when it loops back to the first, so each loop is one conversation of TURNS_PER_CONVERSATION
    requests: Array.from({ length: TURNS_PER_CONVERSATION }, (_, turn) => ({
      method: 'POST',
      path: WEBHOOK,
      headers: { 'content-type': 'application/json' },
      setupRequest(request, context) {
        if (turn === 0) context.id = `${prefix}-${conversations++}`;
        request.body = JSON.stringify({ sender: context.id, message: CYCLE[turn % 2] });
        return request;
      },
      onResponse(status, body) {
        if (check && status === 200 && !body.includes(EXPECTED[turn % 2])) wrong += 1;
      },
    })),
  });
  return {
    requests: result.requests.total,
    rate: result.requests.total / (result.duration || duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    wrong,
  };
}

function inChild(data) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [LOAD_FLAG]);
    child.once('message', (result) => {
      child.kill();
      resolve(result);
    });
    child.once('error', reject);
    child.once('exit', (code) => code && reject(new Error(`the load generator exited with ${code}`)));
    child.send(data);
  });
}

/** A warm-up run, then the measured one; `check`: the replies must be the assistant's. */
async function measure(baseUrl, prefix, check = true) {
  const run = { url: baseUrl, connections: CONNECTIONS, check };
  await inChild({ ...run, duration: WARMUP_S, prefix: `${prefix}-warm` });
  return inChild({ ...run, duration: DURATION_S, prefix });
}

function echoServer() {
  const app = express();
  app.use(express.json());
  app.post(WEBHOOK, (request, response) => {
    response.json([{ recipient_id: request.body.sender, text: request.body.message }]);
  });
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () =>
      resolve({
        baseUrl: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => server.close(done)),
      }),
    );
  });
}

async function postgresDatabase() {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    console.error(`PostgreSQL at ${POSTGRES_URL} is unreachable (${error.message}): its rows are skipped.`);
    return undefined;
  }
  const name = `parley_bench_${process.pid}_${Date.now()}`;
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
  return { config, drop };
}

async function main() {
  const { startServer } = await import('../dist/cli/serve.js');
  const { createTrackerStore } = await import('../dist/stores/factory.js');
  const { SILENT_LOGGER } = await import('../dist/runtime/logger.js');
  const folder = mkdtempSync(join(tmpdir(), 'parley-bench-rest-'));
  const postgres = await postgresDatabase();
  const stores = [
    ['memory', { type: 'in_memory' }],
    ['SQLite', { type: 'sql', dialect: 'sqlite', db: 'bench.db' }],
    ...(postgres ? [['PostgreSQL', postgres.config]] : []),
  ];
  const serve = (config) =>
    startServer({
      location: { project: '.' },
      projectRoot: '.',
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      connector: 'rest',
      trackerStore: createTrackerStore({ config, projectRoot: folder }),
    });
  const rows = [];
  let long;
  try {
    const echo = await echoServer();
    rows.push(['bare Express echo', await measure(echo.baseUrl, 'echo', false)]);
    await echo.close();
    for (const [name, config] of stores) {
      const server = await serve(config);
      rows.push([`parley, ${name} store`, await measure(server.baseUrl, name)]);
      await server.close();
    }
    if (postgres) {
      const server = await serve(postgres.config);
      long = await longConversations(server.baseUrl);
      await server.close();
    }
  } finally {
    await postgres?.drop();
    rmSync(folder, { recursive: true, force: true });
  }
  report(rows, long);
}

/** Several conversations driven one turn at a time to LONG_TURNS turns; medians around 10 and LONG_TURNS. */
async function longConversations(baseUrl) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const turn = async (sender, index) => {
    const started = performance.now();
    const response = await globalThis.fetch(`${baseUrl}${WEBHOOK}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender, message: CYCLE[index % 2] }),
    });
    const body = await response.text();
    if (response.status !== 200 || !body.includes(EXPECTED[index % 2]))
      throw new Error(`turn ${index} of ${sender} failed: ${response.status} ${body}`);
    return performance.now() - started;
  };
  // warm-up: connections opened, code compiled, so that turn 10 is not measured cold
  for (let index = 0; index < 200; index += 1) await turn('long-warm-up', index);
  const early = [];
  const late = [];
  for (let conversation = 0; conversation < LONG_CONVERSATIONS; conversation += 1) {
    for (let index = 0; index < LONG_TURNS + WINDOW / 2; index += 1) {
      const elapsed = await turn(`long-${conversation}`, index);
      if (index >= 10 - WINDOW / 2 && index < 10 + WINDOW / 2) early.push(elapsed);
      if (index >= LONG_TURNS - WINDOW / 2) late.push(elapsed);
    }
  }
  return { early: median(early), late: median(late) };
}

function report(rows, long) {
  const echoRate = rows[0][1].rate;
  const fmt = (value, width, digits = 0) => value.toFixed(digits).padStart(width);
  console.log(
    `REST turns on the bundled assistant (direct payloads, in-process actions): autocannon, ${CONNECTIONS} connections, ${DURATION_S} s after ${WARMUP_S} s of warm-up; ${TURNS_PER_CONVERSATION} turns per conversation`,
  );
  console.log(`${'server'.padEnd(28)}  turns/s  p50 ms  p99 ms  parley/echo  non-2xx  errors  wrong`);
  let failed = false;
  for (const [name, result] of rows) {
    console.log(
      `${name.padEnd(28)}${fmt(result.rate, 9)}${fmt(result.p50, 8)}${fmt(result.p99, 8)}${fmt(result.rate / echoRate, 13, 3)}${fmt(result.non2xx, 9)}${fmt(result.errors, 8)}${fmt(result.wrong, 7)}`,
    );
    if (result.non2xx > 0 || result.errors > 0 || result.wrong > 0) failed = true;
  }
  if (long) {
    const ratio = long.late / long.early;
    console.log(
      `PostgreSQL, one turn at a time: median turn around turn 10: ${long.early.toFixed(2)} ms; around turn ${LONG_TURNS}: ${long.late.toFixed(2)} ms; ratio ${ratio.toFixed(2)} (target <= 1.2; ${LONG_CONVERSATIONS} conversations)`,
    );
    if (ratio > 1.2) failed = true;
  }
  process.exitCode = failed ? 1 : 0;
}
