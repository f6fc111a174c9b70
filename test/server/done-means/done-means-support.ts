/**
 * Shared pieces of the "Done means" suites of the server issue: a small assistant written to a project
 * folder (a transfer flow with two questions, and a counter whose in-process action reads and writes a
 * slot, so that two interleaved turns would be caught), a REST client, and checks of a stored event log.
 */
import { expect } from 'chai';
import type { Event } from '../../../src/core/events/types.js';
import { startServer } from '../../../src/cli/serve.js';
import type { ParleyServer } from '../../../src/cli/serve.js';
import type { Logger } from '../../../src/runtime/logger.js';
import { SILENT_LOGGER } from '../../../src/runtime/logger.js';
import { DEFAULT_LIMITS, openKnex } from '../../../src/stores/sql/sql-connection.js';
import { DEFAULT_SQLITE_FILE, sqliteTarget } from '../../../src/stores/sql/sql-target.js';
import type { SqlTarget } from '../../../src/stores/sql/sql-target.js';
import { SqlTrackerStore } from '../../../src/stores/sql/sql-tracker-store.js';
import { postgresTarget } from '../../support/postgres.js';
import type { TestDatabase } from '../../support/postgres.js';
import { writeInlineProject } from '../../support/inline-project.js';

/** pattern_completed's question after a flow ends (the default patterns) */
export const ANYTHING_ELSE = 'Sure, what would you like me to help you with?';

const DOMAIN = `
  version: "3.1"
  intents: [transfer, count]
  actions: [action_count]
  slots:
    recipient:
      type: text
      mappings: [{type: from_llm}]
    amount:
      type: float
      mappings: [{type: from_llm}]
    count:
      type: float
      mappings: [{type: controlled}]
  responses:
    utter_ask_recipient:
      - text: To whom?
    utter_ask_amount:
      - text: How much for {recipient}?
    utter_sent:
      - text: Sent {amount} to {recipient}.
    utter_count:
      - text: Count {count}.
`;

const FLOWS = `
  flows:
    transfer:
      description: send money to someone
      nlu_trigger: [{intent: transfer}]
      steps:
        - collect: recipient
        - collect: amount
        - action: utter_sent
    count:
      description: count the turns that asked for it
      nlu_trigger: [{intent: count}]
      steps:
        - action: action_count
        - action: utter_count
`;

/**
 * Reads the counter, yields to the event loop for a moment (so that a second turn of the same
 * conversation, were it let in, would read the same value), then writes counter + 1.
 */
const COUNT_ACTION = `
export const actionCount = {
  name: 'action_count',
  async run(context) {
    const before = Number(context.slot('count') ?? 0);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    return { events: [{ event: 'slot', name: 'count', value: before + 1 }] };
  },
};
`;

export interface DoneMeansProjectOptions {
  /** the settings of `action_endpoint`, indented (default: the in-process `actions` module, which runs action_count) */
  readonly actionEndpoint?: string;
  /** config.yml (default: no pipeline, so free text goes to the offline NLU) */
  readonly config?: string;
}

/** A project folder with the assistant above; `endpoints` chooses the stores (none: the SQLite default). */
export function writeDoneMeansProject(endpoints = '', options: DoneMeansProjectOptions = {}): string {
  return writeInlineProject({
    domain: DOMAIN,
    flows: FLOWS,
    endpoints: `action_endpoint:\n${options.actionEndpoint ?? '  actions_module: actions'}\n${endpoints}`,
    ...(options.config ? { config: options.config } : {}),
    credentials: 'rest:\n',
    // an action server runs action_count instead: an in-process action would be found first
    files: options.actionEndpoint ? {} : { 'actions/count.mjs': COUNT_ACTION },
  });
}

export function startProjectServer(root: string, logger: Logger = SILENT_LOGGER): Promise<ParleyServer> {
  return startServer({
    location: { project: root },
    projectRoot: root,
    port: 0,
    host: '127.0.0.1',
    logger,
    connector: 'rest',
  });
}

export interface RestReply {
  readonly status: number;
  readonly headers: Headers;
  readonly json: unknown;
  readonly text: string;
  readonly ms: number;
}

/** One POST to the REST webhook; the body is sent as given when it is a string. */
export async function postRest(
  baseUrl: string,
  body: unknown,
  options: { path?: string; headers?: Record<string, string>; method?: string } = {},
): Promise<RestReply> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${options.path ?? '/webhooks/rest/webhook'}`, {
    method: options.method ?? 'POST',
    headers: { 'Content-Type': 'application/json', ...options.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text, ms: performance.now() - started };
}

/** The texts of a REST reply, in order. */
export function textsOf(reply: RestReply): string[] {
  expect(reply.status, reply.text).to.equal(200);
  return (reply.json as { text?: string }[]).map((message) => message.text ?? '');
}

/** A stored turn: the user event and everything that followed it until the assistant listened. */
export interface StoredTurn {
  readonly user: Extract<Event, { event: 'user' }>;
  readonly events: readonly Event[];
}

const isListen = (event: Event): boolean => event.event === 'action' && event.name === 'action_listen';

/**
 * Splits a stored log into its session start and its turns, asserting that it is a valid log: the
 * session opens it once, and every turn is contiguous (one user event, its actions, then
 * action_listen) with no user event of another turn in between and no half turn at the end.
 */
export function turnsOf(events: readonly Event[], label = ''): StoredTurn[] {
  const firstUser = events.findIndex((event) => event.event === 'user');
  const opening = firstUser === -1 ? events : events.slice(0, firstUser);
  expect(
    events.filter((event) => event.event === 'session_started'),
    `${label}: one session start`,
  ).to.have.length(1);
  expect(
    opening.map((event) => event.event),
    `${label}: the session opens the log`,
  ).to.include('session_started');
  if (firstUser === -1) return [];
  const turns: StoredTurn[] = [];
  let current: Event[] = [];
  for (const event of events.slice(firstUser)) {
    if (event.event === 'user') {
      if (current.length > 0) {
        expect(isListen(current[current.length - 1]!), `${label}: a turn ends with action_listen`).to.equal(
          true,
        );
        turns.push({ user: current[0] as StoredTurn['user'], events: current });
      }
      current = [event];
    } else current.push(event);
  }
  expect(isListen(current[current.length - 1]!), `${label}: the last turn is complete`).to.equal(true);
  turns.push({ user: current[0] as StoredTurn['user'], events: current });
  for (const turn of turns)
    expect(
      turn.events.filter(isListen),
      `${label}: exactly one action_listen per turn (at its end)`,
    ).to.have.length(1);
  return turns;
}

/** The value a turn set for a slot (its last slot event of that name), or undefined. */
export function slotSetIn(turn: StoredTurn, name: string): unknown {
  const sets = turn.events.filter((event) => event.event === 'slot' && event.name === name);
  const last = sets[sets.length - 1] as { value?: unknown } | undefined;
  return last?.value;
}

/** Runs `work` over `items` with at most `limit` at a time; results keep the items' order. */
export async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** endpoints.yml blocks for a PostgreSQL tracker store (and, if asked, PostgreSQL advisory locks). */
export function postgresEndpoints(
  database: string,
  options: { readonly port?: number; readonly lockStore?: boolean } = {},
): string {
  const connection = `  url: 127.0.0.1\n  port: ${options.port ?? 5432}\n  db: ${database}\n  username: postgres\n`;
  const tracker = `tracker_store:\n  type: sql\n  dialect: postgresql\n${connection}`;
  return options.lockStore ? `${tracker}lock_store:\n  type: postgresql\n${connection}` : tracker;
}

/** A store on the database a server used, to look at what it stored: the project's SQLite file by default. */
export function inspectStore(root: string, database?: TestDatabase): SqlTrackerStore {
  // few connections: the PostgreSQL server's 100 are shared with the server under test and other suites
  return new SqlTrackerStore({
    target: storeTarget(root, database),
    limits: { poolSize: INSPECT_POOL_SIZE },
  });
}

/** connections of a store that inspects what a server stored (and how many reads to run at once) */
export const INSPECT_POOL_SIZE = 4;

function storeTarget(root: string, database?: TestDatabase): SqlTarget {
  return database ? postgresTarget(database.url) : sqliteTarget(DEFAULT_SQLITE_FILE, root);
}

/** Per conversation, its rows in the events table and their first and last seq, counted by the database. */
export async function eventRowCounts(
  root: string,
  database?: TestDatabase,
): Promise<Map<string, { rows: number; first: number; last: number }>> {
  const raw = openKnex(storeTarget(root, database), { ...DEFAULT_LIMITS, poolSize: 1 });
  try {
    const rows: { sender_id: string; rows: number | string; first: number; last: number }[] = await raw(
      'events',
    )
      .select('sender_id')
      .count({ rows: '*' })
      .min({ first: 'seq' })
      .max({ last: 'seq' })
      .groupBy('sender_id');
    return new Map(
      rows.map((row) => [
        row.sender_id,
        { rows: Number(row.rows), first: Number(row.first), last: Number(row.last) },
      ]),
    );
  } finally {
    await raw.destroy();
  }
}
