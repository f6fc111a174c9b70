import { expect } from 'chai';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { OBSERVED_PROJECT, writeProject } from './observability-project.js';

async function say(server: ParleyServer, sender: string, message: string): Promise<unknown> {
  const response = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ sender, message }),
  });
  expect(response.status).to.equal(200);
  return response.json();
}

/** The value of one sample line of the exposition, e.g. `parley_turns_total{channel="rest",outcome="ok"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', function () {
  this.timeout(30_000);
  let server: ParleyServer;
  let clockMs = 1_000_000;

  before(async () => {
    const root = writeProject(OBSERVED_PROJECT);
    server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      metrics: { activeWindowSeconds: 60, now: () => clockMs },
    });
  });
  after(() => server.close());

  async function scrape(): Promise<{ text: string; type: string }> {
    const response = await fetch(`${server.baseUrl}/metrics`);
    expect(response.status).to.equal(200);
    return { text: await response.text(), type: response.headers.get('content-type') ?? '' };
  }

  it('counts REST turns, actions by kind and outcome, store calls and active conversations', async () => {
    await say(server, 'alice', '/greet');
    expect(await say(server, 'bob', '/balance')).to.deep.include({
      recipient_id: 'bob',
      text: 'Which account?',
      buttons: [
        { title: 'Checking', payload: '/SetSlots(account=checking)' },
        { title: 'Savings', payload: '/SetSlots(account=savings)' },
      ],
    });
    await say(server, 'bob', '/SetSlots(account=savings)');
    await say(server, 'carol', '/broken');

    const { text, type } = await scrape();
    expect(type).to.match(/^text\/plain; version=0\.0\.4/);
    expect(sample(text, 'parley_turns_total{channel="rest",outcome="ok"}')).to.equal(4);
    expect(sample(text, 'parley_turn_duration_seconds_count{channel="rest"}')).to.equal(4);
    // cumulative buckets end in +Inf holding every turn
    expect(sample(text, 'parley_turn_duration_seconds_bucket{le="+Inf",channel="rest"}')).to.equal(4);
    expect(text).to.match(/parley_turn_duration_seconds_bucket\{le="0\.005",channel="rest"\} \d+/);
    expect(sample(text, 'parley_turns_in_flight')).to.equal(0);
    expect(sample(text, 'parley_active_conversations')).to.equal(3);

    // utter_greet, utter_ask_account, utter_done and pattern responses are responses
    expect(sample(text, 'parley_action_calls_total{action_kind="response",outcome="ok"}')).to.be.at.least(3);
    // action_session_start, action_listen... are built-ins
    expect(sample(text, 'parley_action_calls_total{action_kind="builtin",outcome="ok"}')).to.be.at.least(3);
    // action_missing is declared but has no implementation: the action fails, the turn does not
    expect(sample(text, 'parley_action_calls_total{action_kind="custom",outcome="error"}')).to.equal(1);
    expect(sample(text, 'parley_action_duration_seconds_count{action_kind="custom"}')).to.equal(1);

    // every turn loads the conversation once, appends once and waits for its lock once
    expect(
      sample(text, 'parley_store_operation_duration_seconds_count{store="tracker",operation="loadRecent"}'),
    ).to.equal(4);
    expect(
      sample(text, 'parley_store_operation_duration_seconds_count{store="tracker",operation="append"}'),
    ).to.equal(4);
    expect(
      sample(text, 'parley_store_operation_duration_seconds_count{store="lock",operation="acquire"}'),
    ).to.equal(4);
    expect(text).not.to.include('parley_store_errors_total{');

    // Node.js process metrics come with it
    expect(text).to.include('process_cpu_user_seconds_total');
    expect(text).to.include('nodejs_eventloop_lag_seconds');
  });

  it('forgets conversations once their last turn is older than the window', async () => {
    clockMs += 30_000;
    await say(server, 'dave', '/greet');
    expect(sample((await scrape()).text, 'parley_active_conversations')).to.equal(4);
    clockMs += 45_000; // alice, bob and carol are now 75 s old, dave 45 s
    expect(sample((await scrape()).text, 'parley_active_conversations')).to.equal(1);
  });

  it('counts a failed turn with outcome error', async () => {
    // a tracker store that cannot load makes the turn fail (an infrastructure fault, HTTP 500)
    const root = writeProject(OBSERVED_PROJECT);
    const failing = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      trackerStore: {
        loadRecent: () => Promise.reject(new Error('database is down')),
        loadAll: () => Promise.resolve([]),
        append: () => Promise.resolve(),
      },
    });
    try {
      const response = await fetch(`${failing.baseUrl}/webhooks/rest/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ sender: 'erin', message: 'hi' }),
      });
      expect(response.status).to.equal(500);
      const text = await failing.metrics.text();
      expect(sample(text, 'parley_turns_total{channel="rest",outcome="error"}')).to.equal(1);
      expect(sample(text, 'parley_store_errors_total{store="tracker",operation="loadRecent"}')).to.equal(1);
      expect(sample(text, 'parley_turns_in_flight')).to.equal(0);
    } finally {
      await failing.close();
    }
  });

  it('keeps the counts of each server apart (one registry per server)', async () => {
    const root = writeProject(OBSERVED_PROJECT);
    const other = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
    });
    try {
      const text = await (await fetch(`${other.baseUrl}/metrics`)).text();
      expect(sample(text, 'parley_turns_total{channel="rest",outcome="ok"}')).to.equal(undefined);
      expect(text).to.include('# TYPE parley_turns_total counter');
    } finally {
      await other.close();
    }
  });
});
