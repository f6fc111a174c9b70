// A2A benchmark: JSON-RPC `message/send` (v0.3 wire, blocking) per second and latency through the whole
// server (HTTP, Express, the A2A endpoint, task bookkeeping, the turn gate, the agent, the tracker store)
// on the bundled assistant as shipped (include_conversation_repair false), with the memory and SQLite
// tracker stores, next to an echo agent built on @a2a-js/sdk's own server (DefaultRequestHandler and
// its Express JSON-RPC handler) measured in the same run. Each context does a 2-turn cycle: start the
// balance flow with a direct payload (input-required: it asks which account), answer it (completed);
// then the connection moves on to a new context. No understanding model runs for direct payloads and
// the bundled in-process actions run as they are, so the figures are the server's, the engine's and
// the store's.
//
// The servers run in this process; autocannon runs in a child process so that the load generator
// does not share the servers' event loop.
import autocannon from 'autocannon';
import express from 'express';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresDatabase } from './support/postgres.js';
import { recordResults, setting, targetMet } from './support/results.js';
import { failures, formatSummary, interleavedRounds, withServerCpu } from './support/rounds.js';
import { inChild, isLoadGenerator } from './support/load-generator.js';

const CONNECTIONS = setting('BENCH_CONNECTIONS', 32);
const DURATION_S = setting('BENCH_DURATION', 10, 3);
const WARMUP_S = setting('BENCH_WARMUP', 3, 1);
const ROUNDS = setting('BENCH_ROUNDS', 3, 1);
const CYCLE = ['/check_balance', '/SetSlots(account_type=savings)'];
// what each answer must hold: the task state after the turn, and a piece of the bot's text
const EXPECTED = [
  ['"state":"input-required"', 'Which account would you like the balance for?'],
  ['"state":"completed"', 'savings'],
];

if (!isLoadGenerator(load)) await main();

/** In the child: one autocannon run; each connection runs its own contexts, one 2-turn cycle each. */
async function load({ url, path, connections, duration, prefix, check }) {
  let contexts = 0;
  let requestId = 0;
  let wrong = 0;
  let firstWrong;
  // one entry per turn: autocannon keeps a connection's context across the entries of `requests` and
  // resets it when it loops back to the first, so each loop is one context's 2-turn cycle
  const turn = (index) => ({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    setupRequest(request, context) {
      if (index === 0) context.id = `${prefix}-${contexts++}`;
      request.body = JSON.stringify({
        jsonrpc: '2.0',
        id: (requestId += 1),
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: `${context.id}-${index}`,
            role: 'user',
            contextId: context.id,
            parts: [{ kind: 'text', text: CYCLE[index] }],
          },
        },
      });
      return request;
    },
    onResponse(status, body) {
      const expected = check ? EXPECTED[index] : ['"state":"completed"', 'echo: '];
      if (status === 200 && expected.every((piece) => body.includes(piece))) return;
      wrong += 1;
      firstWrong ??= `${status} ${body.slice(0, 300)}`;
    },
  });
  const result = await autocannon({
    url,
    connections,
    duration,
    requests: CYCLE.map((_, index) => turn(index)),
  });
  return {
    requests: result.requests.total,
    rate: result.requests.total / (result.duration || duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    wrong,
    firstWrong,
  };
}

/** A warm-up run, then the measured one; `check`: the answers must be the bundled assistant's. */
async function measure(target, prefix, check = true) {
  const run = { url: target.baseUrl, path: target.path, connections: CONNECTIONS, check };
  await inChild(import.meta.url, { ...run, duration: WARMUP_S, prefix: `${prefix}-warm` });
  return withServerCpu(() => inChild(import.meta.url, { ...run, duration: DURATION_S, prefix }));
}

/** The @a2a-js/sdk echo agent (spec/a2a.md §4.6): every message gets a completed task echoing its text. */
async function echoAgent() {
  const { AGENT_CARD_PATH, Role, TaskState } = await import('@a2a-js/sdk');
  const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } = await import('@a2a-js/sdk/server');
  const { agentCardHandler, jsonRpcHandler, UserBuilder } = await import('@a2a-js/sdk/server/express');
  const { duplicateInterfacesForLegacy } = await import('@a2a-js/sdk/compat/v0_3');
  const app = express();
  const server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  const textPart = (value) => ({
    content: { $case: 'text', value },
    metadata: undefined,
    filename: '',
    mediaType: 'text/plain',
  });
  const card = {
    name: 'Echo Agent',
    description: 'Echoes text.',
    // the SDK answers v0.3 calls only when the card lists a v0.3 interface
    supportedInterfaces: duplicateInterfacesForLegacy(
      [{ url: `${baseUrl}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
      ['JSONRPC'],
    ),
    provider: undefined,
    version: '0.0.1',
    documentationUrl: '',
    iconUrl: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'echo',
        name: 'Echo',
        description: 'Echo back',
        tags: ['echo'],
        examples: ['hi'],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const executor = {
    async execute(request, bus) {
      const { taskId, contextId, userMessage } = request;
      const text = userMessage.parts
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join(' ');
      const reply = {
        messageId: randomUUID(),
        role: Role.ROLE_AGENT,
        parts: [textPart(`echo: ${text}`)],
        taskId,
        contextId,
        metadata: {},
        extensions: [],
        referenceTaskIds: [],
      };
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          artifacts: [],
          history: [userMessage],
          metadata: {},
          status: {
            state: TaskState.TASK_STATE_COMPLETED,
            timestamp: new Date().toISOString(),
            message: reply,
          },
        }),
      );
    },
    async cancelTask() {},
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use(
    `/${AGENT_CARD_PATH}`,
    agentCardHandler({ agentCardProvider: requestHandler, legacyCompat: { enabled: true } }),
  );
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({
      requestHandler,
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat: { enabled: true },
    }),
  );
  return {
    baseUrl,
    path: '/a2a/jsonrpc',
    close: () => new Promise((done) => server.close(done)),
  };
}

async function main() {
  const { startServer } = await import('../dist/cli/serve.js');
  const { createTrackerStore } = await import('../dist/stores/factory.js');
  const { SILENT_LOGGER } = await import('../dist/runtime/logger.js');
  const { loadProject } = await import('../dist/project/load-project.js');
  const { fingerprintProject } = await import('../dist/cli/model-archive.js');
  const { trainModel } = await import('../dist/cli/train-model.js');
  const { PARLEY_VERSION } = await import('../dist/version.js');
  const folder = mkdtempSync(join(tmpdir(), 'parley-bench-a2a-'));
  const postgres = await postgresDatabase('a2a');
  let rows;
  try {
    // trained once into the temp folder, so that the run leaves models/ alone
    const { project } = loadProject({ project: '.' });
    const model = trainModel({
      project,
      fingerprint: fingerprintProject(project.files, {
        parleyVersion: PARLEY_VERSION,
        rasaVersion: project.assistant.config.rasaVersion,
      }),
      out: folder,
    });
    const serve = async (config) => {
      const server = await startServer({
        location: { project: '.' },
        projectRoot: '.',
        port: 0,
        host: '127.0.0.1',
        logger: SILENT_LOGGER,
        modelPath: model.path,
        trackerStore: createTrackerStore({ config, projectRoot: folder }),
      });
      return { baseUrl: server.baseUrl, path: '/', close: () => server.close() };
    };
    /** A contender: a fresh server each round, warmed up, measured, closed. */
    const contender = (name, start, check = true) => ({
      name,
      async run(round) {
        const server = await start(round);
        try {
          return await measure(server, `${name}-r${round}`, check);
        } finally {
          await server.close();
        }
      },
    });
    rows = await interleavedRounds(ROUNDS, [
      contender('@a2a-js/sdk echo agent', echoAgent, false),
      contender('parley, memory store', () => serve({ type: 'in_memory' })),
      contender('parley, SQLite store', (round) =>
        serve({ type: 'sql', dialect: 'sqlite', db: `bench-${round}.db` }),
      ),
      ...(postgres ? [contender('parley, PostgreSQL store', () => serve(postgres.config))] : []),
    ]);
  } finally {
    await postgres?.drop();
    rmSync(folder, { recursive: true, force: true });
  }
  report(rows);
}

function report(rows) {
  console.log(
    `A2A message/send (JSON-RPC v0.3, blocking) on the bundled assistant (direct payloads, in-process actions): autocannon, ${CONNECTIONS} connections, ${DURATION_S} s after ${WARMUP_S} s of warm-up, ${ROUNDS} interleaved round(s); 2 turns per context; median (min–max) over the rounds`,
  );
  console.log(
    `${'server'.padEnd(28)}${'msgs/s'.padStart(20)}${'p50 ms'.padStart(14)}${'p99 ms'.padStart(14)}${'CPU µs/req'.padStart(18)}${'PG CPU µs/req'.padStart(18)}${'parley/echo'.padStart(24)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(28)}${formatSummary(row.rate).padStart(20)}${formatSummary(row.p50).padStart(14)}${formatSummary(row.p99).padStart(14)}${formatSummary(row.cpu).padStart(18)}${formatSummary(row.postgresCpu).padStart(18)}${(row.ratio ? formatSummary(row.ratio, 3) : '1').padStart(24)}`,
    );
    for (const run of row.runs) {
      if (run.non2xx + run.errors + run.wrong > 0) console.log(`  ${JSON.stringify(run)}`);
    }
  }
  const [echo, ...parley] = rows;
  const targets = {
    'parley, memory store': 1,
    'parley, SQLite store': 0.3,
    'parley, PostgreSQL store': 0.25,
  };
  const measures = [
    { id: 'a2a.echo', label: 'A2A: @a2a-js/sdk echo agent', unit: 'msgs/s', value: echo.rate },
    ...parley.map((row) => ({
      id: `a2a.${row.name.split(' ')[1].toLowerCase()}`,
      label: `A2A: ${row.name}`,
      unit: 'msgs/s',
      value: row.rate,
      baseline: { label: '@a2a-js/sdk echo agent', value: echo.rate },
      ratio: row.ratio,
      target: { of: 'ratio', atLeast: targets[row.name] },
    })),
  ];
  recordResults('a2a', {
    method: `autocannon in a child process, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per server, ${ROUNDS} interleaved rounds (a fresh server each), blocking message/send, 2-turn contexts of direct payloads`,
    measures,
  });
  const missed = measures.filter((measure) => targetMet(measure) === false);
  if (missed.length > 0) console.log(`Missed: ${missed.map((measure) => measure.label).join('; ')}`);
  process.exitCode = failures(rows) > 0 ? 1 : 0;
}
