/**
 * Shared pieces of the "dependency failures under load" suites: a bounded REST load (one client per
 * conversation, one message after the other, each request stamped with the phase it was sent and
 * answered in), the recovery time after a fix, the figures every suite prints, and a real action
 * server whose answers a test switches between right and several kinds of wrong.
 */
import { expect } from 'chai';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RestReply } from './done-means-support.js';
import {
  ANYTHING_ELSE,
  eventRowCounts,
  postRest,
  slotSetIn,
  textsOf,
  turnsOf,
} from './done-means-support.js';
import type { SqlTrackerStore } from '../../../src/stores/sql/sql-tracker-store.js';
import type { TestDatabase } from '../../support/postgres.js';
import { waitFor } from '../../support/timing.js';

/** utter_internal_error_rasa of the default patterns: what pattern_internal_error says */
export const INTERNAL_ERROR = 'Sorry, something went wrong on my side. Please try again in a few minutes.';

/** utter_ask_rephrase: what pattern_cannot_handle says for a message no command came out of */
export const CANNOT_HANDLE = "Sorry, I didn't quite get that. Could you say it in a different way?";

export type LoadPhase = 'before' | 'failing' | 'fixed';

export interface LoadEntry {
  readonly conversation: string;
  /** the message's number, unique in its conversation: `lane * LANE + k` for the k-th of a client */
  readonly n: number;
  readonly sentIn: LoadPhase;
  readonly answeredIn: LoadPhase;
  /** ms since the load started */
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly reply?: RestReply;
  /** a network failure talking to Parley (it crashed or dropped the connection) */
  readonly error?: string;
}

/** numbers of the messages of one client of a conversation: [lane * LANE, (lane + 1) * LANE) */
export const LANE = 1_000_000;

export interface RestLoadOptions {
  /** one client per conversation and URL: with several servers, the turns of a conversation race */
  readonly baseUrl: string | readonly string[];
  readonly conversations: readonly string[];
  /** the text each turn sends */
  readonly message: string;
  /** pause between the turns of one client (default 5 ms) */
  readonly pauseMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Clients talk, each to its own conversation, until `stop()`; `phase` says what the test is doing to
 * the dependency, and every entry records the phase its request was sent and answered in.
 */
export class RestLoad {
  phase: LoadPhase = 'before';
  readonly entries: LoadEntry[] = [];
  private readonly started = performance.now();
  private stopped = false;
  private readonly clients: Promise<void[]>;
  private readonly options: RestLoadOptions;

  constructor(options: RestLoadOptions) {
    this.options = options;
    const urls = typeof options.baseUrl === 'string' ? [options.baseUrl] : options.baseUrl;
    this.clients = Promise.all(
      urls.flatMap((url, lane) => options.conversations.map((id) => this.client(id, url, lane))),
    );
  }

  /** ms since the load started */
  now(): number {
    return performance.now() - this.started;
  }

  /** Sets the phase and returns when it began (ms since the load started). */
  enter(phase: LoadPhase): number {
    this.phase = phase;
    return this.now();
  }

  /** Waits until every client has been answered at least `count` times since `since`. */
  async everyClientAnswered(since: number, what: string, count = 1, deadlineMs = 20_000): Promise<void> {
    await waitFor(
      () =>
        this.options.conversations.every(
          (id) =>
            this.entries.filter((entry) => entry.conversation === id && entry.sentAt >= since).length >=
            count,
        ),
      what,
      deadlineMs,
    );
  }

  async stop(): Promise<LoadEntry[]> {
    this.stopped = true;
    await this.clients;
    return this.entries;
  }

  private async client(conversation: string, baseUrl: string, lane: number): Promise<void> {
    for (let n = lane * LANE; !this.stopped; n += 1) {
      const sentIn = this.phase;
      const sentAt = this.now();
      const body = { sender: conversation, message: this.options.message, metadata: { n } };
      try {
        const reply = await postRest(baseUrl, body);
        this.entries.push({
          conversation,
          n,
          sentIn,
          sentAt,
          answeredIn: this.phase,
          answeredAt: this.now(),
          reply,
        });
      } catch (error) {
        const answeredAt = this.now();
        this.entries.push({
          conversation,
          n,
          sentIn,
          sentAt,
          answeredIn: this.phase,
          answeredAt,
          error: String(error),
        });
      }
      await sleep(this.options.pauseMs ?? 5);
    }
  }
}

export interface FailureScenario extends RestLoadOptions {
  /** breaks the dependency */
  readonly fail: () => unknown;
  /** mends it */
  readonly fix: () => unknown;
  /** the dependency stays broken at least this long (default 0) */
  readonly minFailingMs?: number;
  /** answers every client must have had while it is broken (default 4) */
  readonly answersWhileFailing?: number;
  /** and after the fix (default 4) */
  readonly answersAfter?: number;
}

/**
 * A load through one failure: two answers per client before, then the dependency breaks until every
 * client has had its answers, then it is mended until every client has had its answers again.
 */
export async function loadThroughFailure(
  scenario: FailureScenario,
): Promise<{ entries: LoadEntry[]; failingAt: number; fixedAt: number }> {
  const load = new RestLoad(scenario);
  await load.everyClientAnswered(0, 'two answers before the failure', 2);
  const failingAt = load.enter('failing');
  await scenario.fail();
  await load.everyClientAnswered(failingAt, 'answers while failing', scenario.answersWhileFailing ?? 4);
  await sleep(failingAt + (scenario.minFailingMs ?? 0) - load.now());
  const fixedAt = load.enter('fixed');
  await scenario.fix();
  await load.everyClientAnswered(fixedAt, 'answers after the fix', scenario.answersAfter ?? 4);
  return { entries: await load.stop(), failingAt, fixedAt };
}

/**
 * What a reply was, as a short label for the figures: `ok` (the turn did its work), `internal_error`
 * (pattern_internal_error's answer), `cannot_handle`, `<status> <code>` for an error status, or
 * `network` for a request Parley never answered.
 */
export function kindOf(entry: LoadEntry, isOk: (texts: string[]) => boolean): string {
  if (!entry.reply) return 'network';
  const { status, json } = entry.reply;
  if (status !== 200) {
    const code = (json as { details?: { code?: string } } | undefined)?.details?.code;
    return `${status} ${code ?? '?'}`;
  }
  const texts = textsOf(entry.reply);
  if (isOk(texts)) return 'ok';
  if (texts.includes(INTERNAL_ERROR)) return 'internal_error';
  if (texts.includes(CANNOT_HANDLE)) return 'cannot_handle';
  return `other: ${texts.join(' | ')}`;
}

/** Counts of each kind but `ok`. */
export function errorCounts(kinds: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of kinds) if (kind !== 'ok') counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

export interface Figures {
  readonly dependency: string;
  readonly failure: string;
  readonly turns: number;
  readonly errors: Readonly<Record<string, number>>;
  /** from the fix to the first turn that worked again */
  readonly recoveryMs: number;
  /** from the fix until every conversation had a turn that worked (when it differs) */
  readonly allRecoveredMs?: number;
  /** the slowest answer while the dependency was failing */
  readonly slowestMs: number;
}

/** One line in the test output (and the shape of a row of bench/README.md's table). */
export function printFigures(figures: Figures): void {
  const errors = Object.entries(figures.errors)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ');
  console.log(
    `      (${figures.dependency} ${figures.failure}: ${figures.turns} turns, errors: ${errors || 'none'}, ` +
      `slowest answer while failing ${Math.round(figures.slowestMs)} ms, recovery ${Math.round(figures.recoveryMs)} ms` +
      `${figures.allRecoveredMs === undefined ? '' : `, every conversation ${Math.round(figures.allRecoveredMs)} ms`})`,
  );
}

/** ms from `fixedAt` to the first answer after it that did the work (Infinity if none). */
export function recoveryMs(
  entries: readonly LoadEntry[],
  fixedAt: number,
  isOk: (entry: LoadEntry) => boolean,
): number {
  const answers = entries.filter((entry) => entry.answeredAt >= fixedAt && isOk(entry));
  return Math.min(...answers.map((entry) => entry.answeredAt - fixedAt));
}

/** ms from `fixedAt` until every conversation had an answer after it that did the work */
export function allRecoveredMs(
  entries: readonly LoadEntry[],
  fixedAt: number,
  conversations: readonly string[],
  isOk: (entry: LoadEntry) => boolean,
): number {
  return Math.max(
    ...conversations.map((id) =>
      recoveryMs(
        entries.filter((entry) => entry.conversation === id),
        fixedAt,
        isOk,
      ),
    ),
  );
}

/** the `Count N.` of a reply of the counting flow, or undefined */
export function countOf(texts: readonly string[]): number | undefined {
  const match = /^Count (\d+)\.$/.exec(texts[0] ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * Every stored conversation is a valid log (whole turns, seq without a gap), the counter went up by
 * one per turn that counted (no two turns interleaved, none lost), each answered count is the stored
 * one, and the conversation goes on.
 */
export async function expectValidCountingLogs(options: {
  readonly baseUrl: string;
  readonly root: string;
  readonly store: SqlTrackerStore;
  readonly entries: readonly LoadEntry[];
  readonly conversations: readonly string[];
  readonly message: string;
  readonly database?: TestDatabase;
}): Promise<void> {
  const rows = await eventRowCounts(options.root, options.database);
  for (const id of options.conversations) {
    const seq = rows.get(id);
    expect(seq, `${id} is stored`).to.not.equal(undefined);
    expect(seq, `${id}: seq from 0 without a gap`).to.deep.include({ first: 0, last: seq!.rows - 1 });
    const turns = turnsOf(await options.store.loadAll(id), id);
    const counts = turns.map((turn) => slotSetIn(turn, 'count')).filter((value) => value !== undefined);
    expect(counts, `${id}: the counter goes up by one per counting turn`).to.deep.equal(
      counts.map((_, index) => index + 1),
    );
    const storedN = turns.map((turn) => (turn.user.metadata as { n: number }).n);
    for (const lane of new Set(storedN.map((n) => Math.floor(n / LANE)))) {
      const ofLane = storedN.filter((n) => Math.floor(n / LANE) === lane);
      expect(ofLane, `${id}: each message stored once, in the order its client sent it`).to.deep.equal(
        [...new Set(ofLane)].sort((a, b) => a - b),
      );
    }
    for (const entry of options.entries.filter((candidate) => candidate.conversation === id)) {
      const answered = entry.reply?.status === 200 ? countOf(textsOf(entry.reply)) : undefined;
      if (answered === undefined) continue;
      const turn = turns[storedN.indexOf(entry.n)];
      expect(turn, `${id}: message ${entry.n} was answered, so it is stored`).to.not.equal(undefined);
      expect(slotSetIn(turn!, 'count'), `${id}: message ${entry.n} answered as stored`).to.equal(answered);
    }
    const next = await postRest(options.baseUrl, {
      sender: id,
      message: options.message,
      metadata: { n: -1 },
    });
    expect(textsOf(next), `${id} goes on`).to.deep.equal([`Count ${counts.length + 1}.`, ANYTHING_ELSE]);
  }
}

export type ActionServerMode =
  /** runs action_count: reads the counter from the tracker, answers it + 1 */
  | 'ok'
  /** never answers (until the server closes) */
  | 'hang'
  /** answers right, but after `slowMs` */
  | 'slow'
  | 'status500'
  /** 200 with a body that is not JSON */
  | 'not-json'
  /** 200 with JSON that is not an action response */
  | 'wrong-shape'
  /** 200 with a body of several megabytes that is not an action response */
  | 'huge';

/** A Rasa SDK action server on 127.0.0.1 whose answers follow `mode`. */
export interface ScriptedActionServer {
  readonly url: string;
  readonly port: number;
  mode: ActionServerMode;
  /** requests received */
  readonly received: () => number;
  close(): Promise<void>;
}

const HUGE_BYTES = 8 * 1024 * 1024;

export async function startScriptedActionServer(slowMs = 2_000): Promise<ScriptedActionServer> {
  let received = 0;
  const scripted = {
    mode: 'ok' as ActionServerMode,
  };
  const server: Server = createServer((request, response) => {
    received += 1;
    void readJson(request).then((body) => answer(scripted.mode, body, response, slowMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(scripted, {
    url: `http://127.0.0.1:${port}/webhook`,
    port,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

function answer(mode: ActionServerMode, body: unknown, response: ServerResponse, slowMs: number): void {
  const json = (status: number, value: unknown) => {
    if (response.destroyed) return;
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(typeof value === 'string' ? value : JSON.stringify(value));
  };
  switch (mode) {
    case 'hang':
      return;
    case 'slow':
      setTimeout(() => json(200, countResult(body)), slowMs);
      return;
    case 'status500':
      return json(500, { error: 'the action crashed' });
    case 'not-json':
      return json(200, '<html><body>502 Bad Gateway</body></html>');
    case 'wrong-shape':
      return json(200, { events: { event: 'slot' }, responses: 'hello' });
    case 'huge':
      return json(200, `{"events": "${'x'.repeat(HUGE_BYTES)}"}`);
    case 'ok':
      return json(200, countResult(body));
  }
}

/** action_count's answer: the tracker's counter + 1 */
function countResult(body: unknown): unknown {
  const slots = (body as { tracker?: { slots?: Record<string, unknown> } }).tracker?.slots ?? {};
  const before = Number(slots['count'] ?? 0);
  return { events: [{ event: 'slot', name: 'count', value: before + 1 }], responses: [] };
}

function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
    request.on('error', () => resolve(undefined));
  });
}
