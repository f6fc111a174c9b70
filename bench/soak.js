// Soak: many conversations through one long-lived server, sampling what a leak would grow. Two runs: REST
// turns with the SQLite tracker store, and A2A `message/send` (its tasks, contexts and replay cache are
// held in memory) also on SQLite, so that what grows is the server, not the conversations a memory
// tracker store keeps by design (bench/turn.js measures those: heap per idle conversation).
//
// Each run sends SOAK_CONVERSATIONS two-turn conversations (start the balance flow, answer its question)
// in SOAK_SAMPLES equal chunks; after each chunk the server's heap (after a full collection: run with
// node --expose-gc), RSS, open file descriptors and SQLite file handles are sampled. The first half of
// the chunks is the warm-up (the A2A server's bounded caches fill up in it). Flat means: the heap's least-squares slope over the later samples is under
// SOAK_MAX_HEAP_BYTES_PER_CONVERSATION (default 256 bytes, i.e. 5 MB over 20,000 conversations), and the
// descriptors and database handles end where they were after the warm-up (a margin of 2 for sockets still
// closing).
import { writeHeapSnapshot } from 'node:v8';
import autocannon from 'autocannon';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordResults, setting, targetMet } from './support/results.js';
import { inChild, isLoadGenerator } from './support/load-generator.js';

const CONVERSATIONS = setting('SOAK_CONVERSATIONS', 20_000, 1_000);
const SAMPLES = setting('SOAK_SAMPLES', 10, 5);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 16);
const MAX_SLOPE = setting('SOAK_MAX_HEAP_BYTES_PER_CONVERSATION', 256);
const CYCLE = ['/check_balance', '/SetSlots(account_type=savings)'];
const EXPECTED = ['Which account would you like the balance for?', 'savings'];

if (!isLoadGenerator(load)) await main();

/** The body of one turn: a REST message or an A2A JSON-RPC message/send in the conversation's context. */
function body(protocol, conversation, index, requestId) {
  if (protocol === 'rest') return { sender: conversation, message: CYCLE[index] };
  return {
    jsonrpc: '2.0',
    id: requestId,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        messageId: `${conversation}-${index}`,
        role: 'user',
        contextId: conversation,
        parts: [{ kind: 'text', text: CYCLE[index] }],
      },
    },
  };
}

/** In the child: `amount` requests, each loop of the two entries one new conversation. */
async function load({ url, path, protocol, connections, amount, prefix }) {
  let conversations = 0;
  let requestId = 0;
  let wrong = 0;
  const result = await autocannon({
    url,
    connections,
    amount,
    requests: CYCLE.map((_, index) => ({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      setupRequest(request, context) {
        if (index === 0) context.id = `${prefix}-${conversations++}`;
        request.body = JSON.stringify(body(protocol, context.id, index, (requestId += 1)));
        return request;
      },
      onResponse(status, text) {
        if (status !== 200 || !text.includes(EXPECTED[index])) wrong += 1;
      },
    })),
  });
  return {
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    wrong,
  };
}

/** Open descriptors of this process, and those of them that are SQLite files (the database, -wal, -shm). */
function descriptors() {
  const links = readdirSync('/proc/self/fd').map((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return '';
    }
  });
  return { open: links.length, database: links.filter((link) => /\.db(-wal|-shm)?$/.test(link)).length };
}

function sample(conversations) {
  globalThis.gc?.();
  const memory = process.memoryUsage();
  return { conversations, heap: memory.heapUsed, rss: memory.rss, ...descriptors() };
}

/** The A2A tasks the server holds (its parley_a2a_tasks gauge); undefined without A2A. */
async function a2aTasks(server) {
  const gauge = server.metrics.registry.getSingleMetric('parley_a2a_tasks');
  if (!gauge) return undefined;
  return (await gauge.get()).values[0]?.value;
}

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return variance === 0 ? 0 : covariance / variance;
}

async function soak(name, protocol, server) {
  const perChunk = Math.ceil(CONVERSATIONS / SAMPLES);
  const samples = [];
  let failures = 0;
  const started = Date.now();
  for (let chunk = 0; chunk < SAMPLES; chunk += 1) {
    const result = await inChild(import.meta.url, {
      url: server.baseUrl,
      path: protocol === 'rest' ? '/webhooks/rest/webhook' : '/',
      protocol,
      connections: CONNECTIONS,
      amount: perChunk * CYCLE.length,
      prefix: `${protocol}-${chunk}`,
    });
    failures += result.non2xx + result.errors + result.wrong;
    samples.push({ ...sample((chunk + 1) * perChunk), tasks: await a2aTasks(server) });
    // SOAK_HEAP_SNAPSHOTS=<folder>: heap snapshots after the warm-up and at the end, to find what grows
    if (process.env.SOAK_HEAP_SNAPSHOTS && (chunk === Math.ceil(SAMPLES / 2) - 1 || chunk === SAMPLES - 1))
      writeHeapSnapshot(join(process.env.SOAK_HEAP_SNAPSHOTS, `${protocol}-${chunk}.heapsnapshot`));
  }
  // The first half of the run is the warm-up: the A2A server keeps bounded caches by design (the newest
  // 10,000 answers for messageId replays, i.e. 5,000 two-turn conversations; tasks within
  // max_task_memory_bytes), and a cache filling up to its bound is not a leak; only the second half is
  // judged
  const warmUp = Math.max(0, Math.ceil(samples.length / 2) - 1);
  const warm = samples[warmUp];
  const later = samples.slice(warmUp + 1);
  const last = samples.at(-1);
  const heapSlope = later.length > 1 ? slope(later.map((point) => [point.conversations, point.heap])) : 0;
  const rssSlope = later.length > 1 ? slope(later.map((point) => [point.conversations, point.rss])) : 0;
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  console.log(
    `${name}: ${SAMPLES * perChunk} conversations (${SAMPLES * perChunk * CYCLE.length} turns) in ${((Date.now() - started) / 1000).toFixed(0)} s, ${failures} failed`,
  );
  console.log('  after conversations   heap MB    RSS MB   open fds   SQLite fds   A2A tasks');
  for (const point of samples) {
    console.log(
      `  ${String(point.conversations).padStart(19)}${mb(point.heap).padStart(10)}${mb(point.rss).padStart(10)}${String(point.open).padStart(11)}${String(point.database).padStart(13)}${String(point.tasks ?? '-').padStart(12)}`,
    );
  }
  console.log(
    `  after the warm-up (${warm.conversations} conversations): heap ${heapSlope.toFixed(0)} bytes per conversation (at most ${MAX_SLOPE}), RSS ${rssSlope.toFixed(0)}; fds ${warm.open} → ${last.open}, SQLite ${warm.database} → ${last.database}`,
  );
  const one = (value) => ({ median: value, min: value, max: value, runs: 1 });
  const id = `soak.${protocol}`;
  return {
    failures,
    measures: [
      {
        id: `${id}.heap-slope`,
        label: `soak, ${name}: heap growth after warm-up`,
        unit: 'bytes/conversation',
        value: one(heapSlope),
        target: { of: 'value', atMost: MAX_SLOPE },
      },
      {
        id: `${id}.rss`,
        label: `soak, ${name}: RSS after warm-up → at the end`,
        unit: 'MB',
        value: { median: last.rss / 1e6, min: warm.rss / 1e6, max: last.rss / 1e6, runs: samples.length },
      },
      {
        id: `${id}.fds`,
        label: `soak, ${name}: open fds at the end − after warm-up`,
        unit: 'fds',
        value: one(last.open - warm.open),
        target: { of: 'value', atMost: 2 },
      },
      {
        id: `${id}.database`,
        label: `soak, ${name}: SQLite handles at the end − after warm-up`,
        unit: 'handles',
        value: one(last.database - warm.database),
        target: { of: 'value', atMost: 0 },
      },
    ],
  };
}

async function main() {
  if (typeof globalThis.gc !== 'function') {
    console.error('bench/soak.js samples the heap after a full collection: run it with node --expose-gc.');
    process.exit(1);
  }
  const { startServer } = await import('../dist/cli/serve.js');
  const { createTrackerStore } = await import('../dist/stores/factory.js');
  const { SILENT_LOGGER } = await import('../dist/runtime/logger.js');
  const { loadProject } = await import('../dist/project/load-project.js');
  const { fingerprintProject } = await import('../dist/cli/model-archive.js');
  const { trainModel } = await import('../dist/cli/train-model.js');
  const { PARLEY_VERSION } = await import('../dist/version.js');
  const folder = mkdtempSync(join(tmpdir(), 'parley-bench-soak-'));
  const runs = [];
  try {
    const { project } = loadProject({ project: '.' });
    const model = trainModel({
      project,
      fingerprint: fingerprintProject(project.files, {
        parleyVersion: PARLEY_VERSION,
        rasaVersion: project.assistant.config.rasaVersion,
      }),
      out: folder,
    });
    for (const [name, protocol, db] of [
      ['REST on SQLite', 'rest', 'soak-rest.db'],
      ['A2A on SQLite', 'a2a', 'soak-a2a.db'],
    ]) {
      const server = await startServer({
        location: { project: '.' },
        projectRoot: '.',
        port: 0,
        host: '127.0.0.1',
        logger: SILENT_LOGGER,
        modelPath: model.path,
        ...(protocol === 'rest' ? { connector: 'rest' } : {}),
        trackerStore: createTrackerStore({
          config: { type: 'sql', dialect: 'sqlite', db },
          projectRoot: folder,
        }),
      });
      try {
        runs.push(await soak(name, protocol, server));
      } finally {
        await server.close();
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const measures = runs.flatMap((run) => run.measures);
  recordResults('soak', {
    method: `one server per run, ${CONVERSATIONS} two-turn conversations over ${CONNECTIONS} connections in ${SAMPLES} chunks, heap sampled after a full collection; the first half of the chunks is the warm-up`,
    measures,
  });
  const missed = measures.filter((measure) => targetMet(measure) === false);
  if (missed.length > 0) console.log(`Missed: ${missed.map((measure) => measure.label).join('; ')}`);
  process.exitCode = runs.some((run) => run.failures > 0) ? 1 : 0;
}
