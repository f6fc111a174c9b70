// Scale benchmark: `parley run --workers N` on PostgreSQL (tracker, lock and A2A task store in one
// database), 1 worker against 2, in interleaved rounds: REST turns and A2A message/send per second, with
// the CPU each side used during the measured run (the server's processes, PostgreSQL's, the load
// generator's), read from /proc, so that the ratio can be read on a machine where all three share the
// cores. Then the cost of idle A2A contexts: BENCH_IDLE_CONTEXTS contexts (each with a task waiting for
// input) written through the SQL task store, their rows and bytes in PostgreSQL, the server's memory
// with them against an empty database, and tasks/get latency among them.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load as loadYaml } from 'js-yaml';
import pg from 'pg';
import { postgresDatabase } from './support/postgres.js';
import { cpuOf, isPostgres } from './support/process-cpu.js';
import { recordResults, setting, summarise, targetMet } from './support/results.js';
import { inChild, isLoadGenerator } from './support/load-generator.js';

const CONNECTIONS = setting('BENCH_CONNECTIONS', 32);
const DURATION_S = setting('BENCH_DURATION', 10, 3);
const WARMUP_S = setting('BENCH_WARMUP', 3, 1);
const ROUNDS = setting('BENCH_ROUNDS', 2, 1);
const IDLE_CONTEXTS = setting('BENCH_IDLE_CONTEXTS', 100_000, 5_000);
const GETS = setting('BENCH_TASK_GETS', 1_000, 200);
const CYCLE = ['/check_balance', '/SetSlots(account_type=savings)'];

if (!isLoadGenerator(load)) await main();

/** In the child: one autocannon run of 2-turn cycles over REST or A2A; its own CPU is measured too. */
async function load({ url, kind, connections, duration, prefix }) {
  let cycles = 0;
  let wrong = 0;
  const cpuBefore = process.cpuUsage();
  const turn = (index) => ({
    method: 'POST',
    path: kind === 'rest' ? '/webhooks/rest/webhook' : '/',
    headers: { 'content-type': 'application/json' },
    setupRequest(request, context) {
      if (index === 0) context.id = `${prefix}-${cycles++}`;
      const text = CYCLE[index];
      request.body = JSON.stringify(
        kind === 'rest'
          ? { sender: context.id, message: text }
          : {
              jsonrpc: '2.0',
              id: 1,
              method: 'message/send',
              params: {
                message: {
                  kind: 'message',
                  messageId: `${context.id}-${index}`,
                  role: 'user',
                  contextId: context.id,
                  parts: [{ kind: 'text', text }],
                },
              },
            },
      );
      return request;
    },
    onResponse(status, body) {
      if (status !== 200 || body.includes('"error"')) wrong += 1;
    },
  });
  const result = await autocannon({ url, connections, duration, requests: CYCLE.map((_, i) => turn(i)) });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    rate: result.requests.total / (result.duration || duration),
    wrong: wrong + result.non2xx + result.errors + result.timeouts,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** The bundled assistant's endpoints with every store on the database, written to a temporary file. */
function endpointsFile(folder, database, a2aOverrides = {}) {
  const endpoints = loadYaml(readFileSync('endpoints.yml', 'utf8'));
  endpoints.tracker_store = database.config;
  endpoints.lock_store = { ...database.config, type: 'postgresql' };
  endpoints.a2a_server = { ...endpoints.a2a_server, ...a2aOverrides };
  const file = join(folder, 'endpoints.yml');
  writeFileSync(file, dump(endpoints));
  return file;
}

function progress(line) {
  process.stderr.write(`scale: ${line}\n`);
}

async function parleyRun(args) {
  progress(`parley run ${args.join(' ')}`);
  const child = spawn(process.execPath, ['bin/parley.js', 'run', '--port', '0', '-i', '127.0.0.1', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'error' },
  });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /running at (http:\/\/[^ ]+) /.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`parley run exited (${code}): ${output.slice(-2000)}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return { url, pid: child.pid, stop };
}

/** One server with `workers` processes: REST then A2A, each a warm-up and a measured run. */
async function measureWorkers(workers, folder, modelFolder) {
  const database = await postgresDatabase(`scale${workers}`);
  if (!database) return undefined;
  const endpoints = endpointsFile(folder, database, { max_contexts: 0 });
  const server = await parleyRun([
    '--workers',
    String(workers),
    '--endpoints',
    endpoints,
    '--model',
    modelFolder,
  ]);
  const isServer = ({ pid, ppid }) => pid === server.pid || ppid === server.pid;
  const results = {};
  try {
    for (const kind of ['rest', 'a2a']) {
      const run = { url: server.url, kind, connections: CONNECTIONS };
      await inChild(import.meta.url, { ...run, duration: WARMUP_S, prefix: `${kind}-${workers}-warm` });
      const before = { server: cpuOf(isServer), postgres: cpuOf(isPostgres) };
      const measured = await inChild(import.meta.url, {
        ...run,
        duration: DURATION_S,
        prefix: `${kind}-${workers}`,
      });
      results[kind] = {
        ...measured,
        serverCpu: cpuOf(isServer) - before.server,
        postgresCpu: cpuOf(isPostgres) - before.postgres,
      };
    }
  } finally {
    await server.stop();
    await database.drop();
  }
  return results;
}

/** Writes `count` idle contexts (a task waiting for input each) through the SQL task store. */
async function writeIdleContexts(database, count) {
  const { SqlTrackerStore } = await import('../dist/stores/sql/sql-tracker-store.js');
  const { readSqlTarget } = await import('../dist/stores/sql/sql-target.js');
  const { ConfigReader } = await import('../dist/stores/config-reader.js');
  const { SqlTaskStore } = await import('../dist/a2a/tasks/sql/sql-task-store.js');
  const reader = new ConfigReader({ section: 'tracker_store', raw: database.config });
  const tracker = new SqlTrackerStore({ target: readSqlTarget(reader, { projectRoot: '.', env: {} }) });
  const store = new SqlTaskStore({ database: tracker.database });
  const ids = [];
  const started = performance.now();
  let next = 0;
  const writer = async () => {
    while (next < count) {
      const index = next++;
      const contextId = `idle-${index}`;
      const key = `a2a::${contextId}`;
      const now = Date.now();
      await store.claimContext({
        key,
        contextId,
        owner: '',
        holder: 'bench',
        now,
        leaseMs: 60_000,
        maxContexts: 0,
      });
      const task = {
        id: `idle-task-${index}`,
        contextId,
        status: { state: 'input-required', timestamp: new Date(now).toISOString() },
        history: [
          {
            kind: 'message',
            messageId: `m-${index}`,
            role: 'user',
            parts: [{ kind: 'text', text: '/check_balance' }],
          },
        ],
        artifacts: [],
      };
      await store.saveTask({ task, owner: '', contextKey: key, bytes: JSON.stringify(task).length });
      await store.releaseContext(key, 'bench');
      ids.push(task.id);
    }
  };
  await Promise.all(Array.from({ length: 16 }, writer));
  const seconds = (performance.now() - started) / 1000;
  await tracker.close();
  return { ids, seconds };
}

async function tableFigures(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const sizes = await client.query(
      "SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c WHERE c.relkind = 'r' AND c.relname LIKE 'a2a_%'",
    );
    const rows = await client.query(
      'SELECT (SELECT count(*) FROM a2a_contexts) AS contexts, (SELECT count(*) FROM a2a_tasks) AS tasks',
    );
    return {
      bytes: Number(sizes.rows[0].bytes),
      contexts: Number(rows.rows[0].contexts),
      tasks: Number(rows.rows[0].tasks),
    };
  } finally {
    await client.end();
  }
}

/** tasks/get of random tasks, one at a time on one kept-alive socket: median and p99 in ms. */
async function taskGets(url, ids, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  for (let index = 0; index < count; index += 1) {
    const id = ids[Math.floor(Math.random() * ids.length)];
    const body = JSON.stringify({ jsonrpc: '2.0', id: index, method: 'tasks/get', params: { id } });
    const started = performance.now();
    const answer = await new Promise((resolve, reject) => {
      const request = http.request(
        `${url}/`,
        { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve(text));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    times.push(performance.now() - started);
    if (!answer.includes('"input-required"'))
      throw new Error(`tasks/get of ${id} answered ${answer.slice(0, 200)}`);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)] };
}

async function idleCost(folder, modelFolder) {
  const empty = await postgresDatabase('idle0');
  const full = await postgresDatabase('idle');
  if (!empty || !full) return undefined;
  try {
    const emptyServer = await parleyRun([
      '--endpoints',
      endpointsFile(folder, empty, { max_contexts: 0 }),
      '--model',
      modelFolder,
    ]);
    const emptyRss = rssOf(emptyServer.pid);
    progress(`empty database: RSS ${emptyRss} bytes`);
    await emptyServer.stop();
    // the schema first: a server start migrates the database
    const starter = await parleyRun([
      '--endpoints',
      endpointsFile(folder, full, { max_contexts: 0 }),
      '--model',
      modelFolder,
    ]);
    await starter.stop();
    progress(`writing ${IDLE_CONTEXTS} idle contexts`);
    const written = await writeIdleContexts(full, IDLE_CONTEXTS);
    const tables = await tableFigures(full.url);
    const server = await parleyRun([
      '--endpoints',
      endpointsFile(folder, full, { max_contexts: 0 }),
      '--model',
      modelFolder,
    ]);
    const rss = rssOf(server.pid);
    const gets = await taskGets(server.url, written.ids, GETS);
    await server.stop();
    return { ...tables, writeSeconds: written.seconds, emptyRss, rss, gets };
  } finally {
    await empty.drop();
    await full.drop();
  }
}

async function trainOnce(folder) {
  const child = spawn(process.execPath, ['bin/parley.js', 'train', '--out', folder], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`train exited ${code}`)))),
  );
  return folder;
}

async function main() {
  const folder = mkdtempSync(join(tmpdir(), 'parley-bench-scale-'));
  try {
    const modelFolder = await trainOnce(join(folder, 'models'));
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const one = await measureWorkers(1, folder, modelFolder);
      const two = await measureWorkers(2, folder, modelFolder);
      if (!one || !two) return;
      rounds.push({ one, two });
    }
    const idle = await idleCost(folder, modelFolder);
    report(rounds, idle);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function report(rounds, idle) {
  const measures = [];
  const fmt = (value) => value.toFixed(1);
  console.log(
    `parley run --workers 1 and 2 on PostgreSQL, bundled assistant, 2-turn cycles of direct payloads: autocannon, ${CONNECTIONS} connections, ${DURATION_S} s after ${WARMUP_S} s of warm-up, ${rounds.length} interleaved round(s); CPU seconds during the measured run`,
  );
  console.log('kind  workers  turns/s  server CPU s  postgres CPU s  load generator CPU s  wrong');
  for (const kind of ['rest', 'a2a']) {
    for (const [label, pick] of [
      ['1', (r) => r.one],
      ['2', (r) => r.two],
    ])
      for (const round of rounds) {
        const r = pick(round)[kind];
        console.log(
          `${kind.padEnd(5)} ${label.padStart(7)} ${fmt(r.rate).padStart(8)} ${fmt(r.serverCpu).padStart(13)} ${fmt(r.postgresCpu).padStart(15)} ${fmt(r.cpuSeconds).padStart(21)} ${String(r.wrong).padStart(6)}`,
        );
      }
    // what 2 workers could reach at most: the machine's core-seconds over what the 1-worker run used
    const used = summarise(
      rounds.map((r) => r.one[kind].serverCpu + r.one[kind].postgresCpu + r.one[kind].cpuSeconds),
    ).median;
    const available = cpus().length * DURATION_S;
    console.log(
      `${kind}: the 1-worker run used ${fmt(used)} of the machine's ${available} core-seconds (server, PostgreSQL, load generator): ` +
        `at the same CPU a turn, 2 workers can reach at most ${(available / used).toFixed(2)} × its rate`,
    );
    const name = kind === 'rest' ? 'REST turns' : 'A2A message/send';
    measures.push({
      id: `scale-${kind}`,
      label: `scale: ${name}, 2 workers ÷ 1 worker (PostgreSQL)`,
      unit: 'turns/s',
      value: summarise(rounds.map((r) => r.two[kind].rate)),
      baseline: { label: '1 worker', value: summarise(rounds.map((r) => r.one[kind].rate)) },
      ratio: summarise(rounds.map((r) => r.two[kind].rate / r.one[kind].rate)),
      target: { of: 'ratio', atLeast: 1.3 },
    });
  }
  if (idle) {
    console.log(
      `${idle.contexts} idle A2A contexts (${idle.tasks} tasks waiting for input), written in ${fmt(idle.writeSeconds)} s: ` +
        `${(idle.bytes / 2 ** 20).toFixed(1)} MB in the a2a_* tables (${Math.round(idle.bytes / idle.contexts)} bytes a context); ` +
        `server RSS ${(idle.rss / 2 ** 20).toFixed(0)} MB with them, ${(idle.emptyRss / 2 ** 20).toFixed(0)} MB on an empty database; ` +
        `tasks/get p50 ${idle.gets.p50.toFixed(2)} ms, p99 ${idle.gets.p99.toFixed(2)} ms`,
    );
    measures.push(
      {
        id: 'idle-bytes',
        label: `scale: bytes per idle A2A context in PostgreSQL (${idle.contexts})`,
        unit: 'bytes',
        value: summarise([idle.bytes / idle.contexts]),
      },
      {
        id: 'idle-rss',
        label: `scale: server RSS with ${idle.contexts} idle A2A contexts`,
        unit: 'MB',
        value: summarise([idle.rss / 2 ** 20]),
        baseline: { label: 'empty database', value: summarise([idle.emptyRss / 2 ** 20]) },
      },
      {
        id: 'idle-get',
        label: `scale: tasks/get among ${idle.contexts} idle contexts, median`,
        unit: 'ms',
        value: summarise([idle.gets.p50]),
      },
    );
  }
  const wrong = rounds.some((r) =>
    ['rest', 'a2a'].some((kind) => r.one[kind].wrong > 0 || r.two[kind].wrong > 0),
  );
  recordResults('scale', {
    method: `whole processes (parley run --workers 1 and 2), PostgreSQL stores, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s, ${rounds.length} interleaved rounds; ${IDLE_CONTEXTS} idle contexts through the SQL task store`,
    measures,
    notes: wrong ? ['some answers were errors (see the wrong column)'] : [],
  });
  const missed = measures.filter((measure) => targetMet(measure) === false);
  if (missed.length > 0) console.log(`Missed: ${missed.map((measure) => measure.label).join('; ')}`);
  if (wrong) process.exitCode = 1;
}
