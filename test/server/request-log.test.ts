import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/cli/logger.js';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { OBSERVED_PROJECT, writeProject } from './observability-project.js';
import { waitFor } from '../support/timing.js';

type LogLine = Record<string, unknown> & { msg: string; level: number };

/** A pino destination that keeps every JSON line. */
class CapturedLines extends Writable {
  readonly lines: LogLine[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n'))
      if (line.trim() !== '') this.lines.push(JSON.parse(line) as LogLine);
    done();
  }

  find(predicate: (line: LogLine) => boolean): LogLine[] {
    return this.lines.filter(predicate);
  }

  /** The first line matching, once there: a request is logged once its response has been sent. */
  async first(predicate: (line: LogLine) => boolean): Promise<LogLine> {
    await waitFor(() => this.lines.some(predicate), 'a matching log line');
    return this.lines.find(predicate) as LogLine;
  }
}

const INFO = 30;
const DEBUG = 20;
const ERROR = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request logging', function () {
  this.timeout(30_000);
  let server: ParleyServer;
  let captured: CapturedLines;

  before(async () => {
    captured = new CapturedLines();
    const root = writeProject(OBSERVED_PROJECT);
    server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: createLogger({ level: 'debug', destination: captured }),
    });
  });
  after(() => server.close());

  function post(body: unknown, headers: Record<string, string> = {}, query = ''): Promise<Response> {
    return fetch(`${server.baseUrl}/webhooks/rest/webhook${query}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  it('honours X-Request-Id, echoes it and logs the request and its turn in one line', async () => {
    const response = await post({ sender: 'alice', message: '/greet' }, { 'X-Request-Id': 'req-123' });
    expect(response.status).to.equal(200);
    expect(response.headers.get('x-request-id')).to.equal('req-123');
    await response.json();

    const request = await captured.first(
      (line) => line.msg === 'http.request' && line.requestId === 'req-123',
    );
    expect(request).to.include({
      level: INFO,
      name: 'parley',
      method: 'POST',
      path: '/webhooks/rest/webhook',
      status: 200,
    });
    expect(request.durationMs).to.be.a('number').and.at.least(0);
    expect(request.time).to.match(/^\d{4}-\d\d-\d\dT/);

    expect(request).to.include({ conversationId: 'alice', channel: 'rest', outcome: 'ok' });
    expect(request.turnMs)
      .to.be.a('number')
      .and.at.most(request.durationMs as number);
    // the turn has no line of its own
    expect(captured.find((line) => line.msg === 'turn.finished')).to.deep.equal([]);
  });

  it('generates an id when none (or an unusable one) is given', async () => {
    const plain = await post({ sender: 'bob', message: '/greet' });
    const generated = plain.headers.get('x-request-id') ?? '';
    expect(generated).to.match(UUID);
    await plain.json();
    const spoofed = await post({ sender: 'bob', message: '/greet' }, { 'X-Request-Id': 'a b\tc'.repeat(50) });
    expect(spoofed.headers.get('x-request-id')).to.match(UUID);
    await spoofed.json();
    expect(
      captured.find((line) => line.msg === 'http.request' && line.requestId === generated),
    ).to.have.length(1);
  });

  it('gives the agent logs of a turn its conversation id and request id', async () => {
    const response = await post({ sender: 'carol', message: '/broken' }, { 'X-Request-Id': 'req-broken' });
    await response.json();
    const [failure] = captured.find((line) => line.action === 'action_missing');
    expect(failure).to.include({
      level: ERROR,
      requestId: 'req-broken',
      conversationId: 'carol',
      code: 'ACTION_NOT_IMPLEMENTED',
    });
  });

  it('gives each of concurrent requests its own id on the lines of its own turn', async () => {
    const senders = ['conc-1', 'conc-2', 'conc-3', 'conc-4'];
    const responses = await Promise.all(
      senders.map((sender) => post({ sender, message: '/broken' }, { 'X-Request-Id': `req-${sender}` })),
    );
    await Promise.all(responses.map((response) => response.json()));
    for (const sender of senders) {
      const lines = captured.find(
        (line) => line.action === 'action_missing' && line.conversationId === sender,
      );
      expect(lines, sender).to.have.length(1);
      expect(lines[0]?.requestId, sender).to.equal(`req-${sender}`);
    }
  });

  it('logs the path without its query string (it may carry a token)', async () => {
    const response = await post(
      { sender: 'dave', message: '/greet' },
      { 'X-Request-Id': 'req-q' },
      '?token=secret',
    );
    await response.json();
    const request = await captured.first((line) => line.msg === 'http.request' && line.requestId === 'req-q');
    expect(request.path).to.equal('/webhooks/rest/webhook');
    expect(JSON.stringify(captured.lines)).not.to.include('secret');
  });

  it('logs client errors at info, and health checks and scrapes at debug', async () => {
    const failed = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req-bad' },
      body: '{not json',
    });
    expect(failed.status).to.equal(400);
    const scrape = await fetch(`${server.baseUrl}/metrics`, { headers: { 'X-Request-Id': 'req-scrape' } });
    await scrape.text();
    expect(await captured.first((line) => line.requestId === 'req-bad')).to.include({
      level: INFO,
      status: 400,
    });
    expect(await captured.first((line) => line.requestId === 'req-scrape')).to.include({
      level: DEBUG,
      path: '/metrics',
      status: 200,
    });
  });
});

describe('request logging of a failing turn', function () {
  this.timeout(30_000);

  it('logs the failed turn (and a failed HTTP API call) and the 500 responses at error, with the ids', async () => {
    const captured = new CapturedLines();
    const root = writeProject(OBSERVED_PROJECT);
    const server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: createLogger({ level: 'info', destination: captured }),
      enableApi: true,
      trackerStore: {
        loadRecent: () => Promise.reject(new Error('database is down')),
        loadAll: () => Promise.resolve([]),
        append: () => Promise.resolve(),
      },
    });
    try {
      const response = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req-down' },
        body: JSON.stringify({ sender: 'erin', message: 'hi' }),
      });
      expect(response.status).to.equal(500);
      await response.json();
      expect(await captured.first((line) => line.msg === 'turn.failed')).to.include({
        level: ERROR,
        requestId: 'req-down',
        conversationId: 'erin',
        outcome: 'error',
        error: 'database is down',
      });
      expect(await captured.first((line) => line.msg === 'http.request')).to.include({
        level: ERROR,
        requestId: 'req-down',
        status: 500,
      });
      const api = await fetch(`${server.baseUrl}/conversations/erin/tracker`, {
        headers: { 'X-Request-Id': 'req-api' },
      });
      expect(api.status).to.equal(500);
      expect(await captured.first((line) => line.msg === 'HTTP API request failed')).to.include({
        level: ERROR,
        requestId: 'req-api',
        error: 'database is down',
      });
    } finally {
      await server.close();
    }
  });
});

describe('createLogger', () => {
  it("understands Rasa's level names and falls back on an unknown one with a warning", () => {
    const captured = new CapturedLines();
    const rasa = createLogger({ level: 'WARNING', destination: captured });
    rasa.info({}, 'hidden');
    rasa.warn({}, 'shown');
    expect(captured.lines.map((line) => line.msg)).to.deep.equal(['shown']);

    const unknown = new CapturedLines();
    const fallback = createLogger({ level: 'verbose', defaultLevel: 'info', destination: unknown });
    fallback.info({}, 'kept');
    expect(unknown.lines.map((line) => line.msg)).to.deep.equal([
      "'verbose' is not a log level; logging at 'info'",
      'kept',
    ]);
  });
});
