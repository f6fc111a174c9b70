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
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { commitLatency, postgresDatabase } from './support/postgres.js';
import { recordResults, setting, summarise, targetMet } from './support/results.js';
import { failures, formatSummary, interleavedRounds, selected, withServerCpu } from './support/rounds.js';
import { inChild, isLoadGenerator } from './support/load-generator.js';

const CONNECTIONS = setting('BENCH_CONNECTIONS', 32);
const DURATION_S = setting('BENCH_DURATION', 10, 3);
const WARMUP_S = setting('BENCH_WARMUP', 3, 1);
const ROUNDS = setting('BENCH_ROUNDS', 3, 1);
const LONG_TURNS = setting('BENCH_LONG_TURNS', 1000, 200);
const LONG_CONVERSATIONS = setting('BENCH_LONG_CONVERSATIONS', 3, 1);
const WINDOW = 20;
const TURNS_PER_CONVERSATION = 10;
const WEBHOOK = '/webhooks/rest/webhook';
// one cycle = two turns: start the balance flow (it asks which account), answer it (the flow ends)
const CYCLE = ['/check_balance', '/SetSlots(account_type=savings)'];
const EXPECTED = ['Which account would you like the balance for?', 'savings'];

if (!isLoadGenerator(generate)) await main();

/** In the child: an autocannon run, or the long conversations driven one turn at a time. */
function generate(task) {
  return task.long ? longConversations(task.url, task.databaseUrl) : load(task);
}

/** One autocannon run; each connection talks to its own conversations, in order. */
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

/** A warm-up run, then the measured one; `check`: the replies must be the assistant's. */
async function measure(baseUrl, prefix, check = true) {
  const run = { url: baseUrl, connections: CONNECTIONS, check };
  await inChild(import.meta.url, { ...run, duration: WARMUP_S, prefix: `${prefix}-warm` });
  return withServerCpu(() => inChild(import.meta.url, { ...run, duration: DURATION_S, prefix }));
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

async function main() {
  const { startServer } = await import('../dist/cli/serve.js');
  const { createTrackerStore } = await import('../dist/stores/factory.js');
  const { SILENT_LOGGER } = await import('../dist/runtime/logger.js');
  const folder = mkdtempSync(join(tmpdir(), 'parley-bench-rest-'));
  const postgres = await postgresDatabase('rest');
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
  /** A contender: a fresh server each round, warmed up, measured, closed. */
  const contender = (name, start, check = true) => ({
    name,
    async run(round) {
      const server = await start(round);
      try {
        return await measure(server.baseUrl, `${name}-r${round}`, check);
      } finally {
        await server.close();
      }
    },
  });
  const contenders = [
    contender('bare Express echo', echoServer, false),
    contender('parley, memory store', () => serve({ type: 'in_memory' })),
    contender('parley, SQLite store', (round) =>
      serve({ type: 'sql', dialect: 'sqlite', db: `bench-${round}.db` }),
    ),
    ...(postgres ? [contender('parley, PostgreSQL store', () => serve(postgres.config))] : []),
  ];
  let rows;
  let long;
  try {
    rows = await interleavedRounds(ROUNDS, contenders);
    if (postgres && selected('parley, PostgreSQL store')) {
      const server = await serve(postgres.config);
      // in a child process, like autocannon: a client in the server's process would add its own CPU
      // (fetch costs more than the turn) to every turn it times
      long = await inChild(import.meta.url, { long: true, url: server.baseUrl, databaseUrl: postgres.url });
      await server.close();
    }
  } finally {
    await postgres?.drop();
    rmSync(folder, { recursive: true, force: true });
  }
  report(rows, long);
}

/**
 * Several conversations driven one turn at a time to LONG_TURNS turns, after a warm-up; per conversation
 * the median turn time over all its turns, in a window around turn 10 and in one around turn LONG_TURNS.
 */
async function longConversations(baseUrl, databaseUrl) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  // node:http on one kept-alive socket, not fetch: undici's fetch spent about 1.2 ms of its own a turn
  // here, more than the server's HTTP work, and the figure is meant to be the server's
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const turn = async (sender, index) => {
    const started = performance.now();
    const { status, body } = await post(agent, `${baseUrl}${WEBHOOK}`, { sender, message: CYCLE[index % 2] });
    if (status !== 200 || !body.includes(EXPECTED[index % 2]))
      throw new Error(`turn ${index} of ${sender} failed: ${status} ${body}`);
    return performance.now() - started;
  };
  // warm-up: connections opened, code compiled, so that turn 10 is not measured cold
  for (let index = 0; index < 200; index += 1) await turn('long-warm-up', index);
  const conversations = [];
  for (let conversation = 0; conversation < LONG_CONVERSATIONS; conversation += 1) {
    // the floor, measured next to each conversation: one committed one-row INSERT on the same database
    const commit = await commitLatency(databaseUrl);
    const times = [];
    for (let index = 0; index < LONG_TURNS + WINDOW / 2; index += 1)
      times.push(await turn(`long-${conversation}`, index));
    const early = median(times.slice(10 - WINDOW / 2, 10 + WINDOW / 2));
    const late = median(times.slice(LONG_TURNS - WINDOW / 2));
    conversations.push({ all: median(times), early, late, ratio: late / early, commit });
  }
  const of = (key) => summarise(conversations.map((conversation) => conversation[key]));
  return { all: of('all'), early: of('early'), late: of('late'), ratio: of('ratio'), commit: of('commit') };
}

/** A JSON POST on `agent`'s socket: the status and the body as text. */
function post(agent, url, payload) {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: text }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function report(rows, long) {
  console.log(
    `REST turns on the bundled assistant (direct payloads, in-process actions): autocannon, ${CONNECTIONS} connections, ${DURATION_S} s after ${WARMUP_S} s of warm-up, ${ROUNDS} interleaved round(s); ${TURNS_PER_CONVERSATION} turns per conversation; median (min–max) over the rounds`,
  );
  console.log(
    `${'server'.padEnd(28)}${'turns/s'.padStart(20)}${'p50 ms'.padStart(14)}${'p99 ms'.padStart(14)}${'CPU µs/req'.padStart(18)}${'PG CPU µs/req'.padStart(18)}${'parley/echo'.padStart(24)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(28)}${formatSummary(row.rate).padStart(20)}${formatSummary(row.p50).padStart(14)}${formatSummary(row.p99).padStart(14)}${formatSummary(row.cpu).padStart(18)}${formatSummary(row.postgresCpu).padStart(18)}${(row.ratio ? formatSummary(row.ratio, 3) : '1').padStart(24)}`,
    );
    for (const run of row.runs)
      if (run.non2xx + run.errors + run.wrong > 0 || process.env.BENCH_DEBUG === '1')
        console.log(`  ${JSON.stringify(run)}`);
  }
  const [echo, ...parley] = rows;
  const targets = {
    'parley, memory store': 0.5,
    'parley, SQLite store': 0.3,
    'parley, PostgreSQL store': 0.25,
  };
  const measures = [
    { id: 'rest.echo', label: 'REST: bare Express echo', unit: 'turns/s', value: echo.rate },
    ...parley.map((row) => ({
      id: `rest.${row.name.split(' ')[1].toLowerCase()}`,
      label: `REST: ${row.name}`,
      unit: 'turns/s',
      value: row.rate,
      baseline: { label: 'bare Express echo', value: echo.rate },
      ratio: row.ratio,
      target: { of: 'ratio', atLeast: targets[row.name] },
    })),
  ];
  if (long) {
    console.log(
      `PostgreSQL, one turn at a time (client side, HTTP included; ${LONG_CONVERSATIONS} conversations of ${LONG_TURNS} turns): median turn ${formatSummary(long.all, 2)} ms; around turn 10 ${formatSummary(long.early, 2)} ms, around turn ${LONG_TURNS} ${formatSummary(long.late, 2)} ms; late/early ${formatSummary(long.ratio, 2)} (targets: ≤ 3 ms, ≤ 1.2); a bare one-row INSERT commit on the same database: ${formatSummary(long.commit, 2)} ms`,
    );
    measures.push(
      {
        id: 'rest.postgresql.one-at-a-time',
        label: 'REST: one PostgreSQL turn at a time, median',
        unit: 'ms',
        value: long.all,
        baseline: { label: 'a one-row INSERT commit on the same database', value: long.commit },
        target: { of: 'value', atMost: 3 },
      },
      {
        id: 'rest.postgresql.late-over-early',
        label: `REST: PostgreSQL turn ${LONG_TURNS} ÷ turn 10`,
        unit: '×',
        value: long.ratio,
        target: { of: 'value', atMost: 1.2 },
      },
    );
  }
  recordResults('rest', {
    method: `autocannon in a child process, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per server, ${ROUNDS} interleaved rounds (a fresh server each), 10-turn conversations of direct payloads`,
    measures,
  });
  const missed = measures.filter((measure) => targetMet(measure) === false);
  if (missed.length > 0) console.log(`Missed: ${missed.map((measure) => measure.label).join('; ')}`);
  process.exitCode = failures(rows) > 0 ? 1 : 0;
}
