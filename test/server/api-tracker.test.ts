import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../src/core/errors.js';
import type { TrackerJson } from '../../src/core/events/tracker-json.js';
import type { Event } from '../../src/core/events/types.js';
import type { TrackerSnapshot, TrackerStore } from '../../src/core/ports.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import { rasaError, startApiServer } from './api-support.js';
import type { ApiServer } from './api-support.js';

type Json = Record<string, unknown>;

const names = (events: readonly { event: string }[] | null | undefined) => (events ?? []).map((e) => e.event);
const SESSION = ['action', 'session_started', 'action'];

/** A memory store whose next append fails with the error given (conflicts, outages). */
class FailingStore extends MemoryTrackerStore {
  failNext: Error | undefined;

  override async append(
    conversationId: string,
    events: readonly Event[],
    options: { readonly expectedCount: number; readonly snapshot?: TrackerSnapshot },
  ): Promise<void> {
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure) throw failure;
    return super.append(conversationId, events, options);
  }
}

const folder = mkdtempSync(join(tmpdir(), 'parley-api-sqlite-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const STORES: { name: string; open: () => TrackerStore }[] = [
  { name: 'memory', open: () => new MemoryTrackerStore() },
  {
    name: 'SQLite',
    open: () => new SqlTrackerStore({ target: sqliteTarget(join(folder, `api-${Date.now()}.db`), folder) }),
  },
];

for (const { name, open } of STORES) {
  describe(`HTTP API tracker routes (${name} tracker store)`, function () {
    this.timeout(30_000);
    let api: ApiServer;

    before(async () => {
      api = await startApiServer({ trackerStore: open() });
    });
    after(() => api.close());

    const tracker = async (id: string, query = '') =>
      (await api.request('GET', `/conversations/${id}/tracker${query}`)).json as TrackerJson;

    describe('GET /conversations/:id/tracker', () => {
      it('shows an unknown conversation with the session start a first message would add, storing nothing', async () => {
        const state = await tracker('fresh', '?include_events=ALL');
        expect(state.sender_id).to.equal('fresh');
        expect(names(state.events)).to.deep.equal(SESSION);
        expect(state.latest_action_name).to.equal('action_listen');
        expect(await api.store.loadAll('fresh')).to.deep.equal([]);
      });

      it('returns the events for each include_events value (any case), AFTER_RESTART by default', async () => {
        await api.request('POST', '/conversations/verb/tracker/events', {
          body: [
            { event: 'slot', name: 'account', value: 'savings' },
            { event: 'restart' },
            { event: 'slot', name: 'account', value: 'checking' },
            { event: 'action', name: 'action_listen' },
            { event: 'user', text: 'hi' },
            { event: 'rewind' },
          ],
        });
        expect(names((await tracker('verb', '?include_events=ALL')).events)).to.deep.equal([
          ...SESSION,
          ...['slot', 'restart', 'slot', 'action', 'user', 'rewind'],
        ]);
        expect(names((await tracker('verb')).events)).to.deep.equal(['slot', 'action', 'user', 'rewind']);
        expect(names((await tracker('verb', '?include_events=after_restart')).events)).to.deep.equal([
          'slot',
          'action',
          'user',
          'rewind',
        ]);
        // APPLIED: from the latest restart, minus what the rewind took back (the user message and its listen)
        expect(names((await tracker('verb', '?include_events=applied')).events)).to.deep.equal(['slot']);
        expect((await tracker('verb', '?include_events=NONE')).events).to.equal(null);
        expect((await tracker('verb', '?include_events=NONE')).slots['account']).to.equal('checking');
      });

      it('refuses an unknown include_events value with 400 naming the parameter', async () => {
        const response = await api.request('GET', '/conversations/verb/tracker?include_events=SOME');
        expect(response.status).to.equal(400);
        expect(response.json).to.deep.include(
          rasaError(400, 'BadRequest', { parameter: 'include_events', in: 'query' }),
        );
        expect((response.json as Json)['message']).to.equal(
          "Invalid parameter value for 'include_events'. Should be one of NONE, APPLIED, AFTER_RESTART, ALL",
        );
      });

      it('replays the events up to `until` and derives the state from them', async () => {
        await api.request('POST', '/conversations/time/tracker/events', {
          body: [
            { event: 'session_started', timestamp: 100 },
            { event: 'slot', name: 'account', value: 'savings', timestamp: 200 },
            { event: 'slot', name: 'account', value: 'checking', timestamp: 300 },
          ],
        });
        const at250 = await tracker('time', '?until=250&include_events=ALL');
        expect(names(at250.events)).to.deep.equal(['session_started', 'slot']);
        expect(at250.slots['account']).to.equal('savings');
        expect(at250.latest_event_time).to.equal(200);
        expect((await tracker('time', '?until=300')).slots['account']).to.equal('checking');
        const bad = await api.request('GET', '/conversations/time/tracker?until=soon');
        expect(bad.json).to.deep.include(rasaError(400, 'BadRequest', { parameter: 'until', in: 'query' }));
      });

      it('accepts conversation ids with slashes, encoded or not', async () => {
        await api.request('POST', '/conversations/team%2Fann/tracker/events', {
          body: { event: 'slot', name: 'account', value: 'savings' },
        });
        expect((await tracker('team/ann')).sender_id).to.equal('team/ann');
        expect((await tracker('team/ann')).slots['account']).to.equal('savings');
      });
    });

    describe('POST /conversations/:id/tracker/events', () => {
      it('opens a new conversation with a session, then appends one event or a list', async () => {
        const one = await api.request('POST', '/conversations/post1/tracker/events', {
          body: { event: 'slot', name: 'account', value: 'savings' },
        });
        expect(one.status).to.equal(200);
        expect(names((one.json as TrackerJson).events)).to.deep.equal([...SESSION, 'slot']);
        const more = await api.request('POST', '/conversations/post1/tracker/events?include_events=ALL', {
          body: [
            { event: 'bot', text: 'hello', timestamp: 1234.5 },
            { event: 'slot', name: 'account', value: null },
          ],
        });
        const events = (more.json as TrackerJson).events ?? [];
        expect(names(events)).to.deep.equal([...SESSION, 'slot', 'bot', 'slot']);
        expect(events[4]).to.deep.include({ event: 'bot', text: 'hello', timestamp: 1234.5 });
        expect(names(await api.store.loadAll('post1'))).to.deep.equal(names(events));
      });

      it('adds no session when the events begin with their own session_started', async () => {
        const response = await api.request('POST', '/conversations/post2/tracker/events?include_events=ALL', {
          body: [{ event: 'session_started' }, { event: 'action', name: 'action_listen' }],
        });
        expect(names((response.json as TrackerJson).events)).to.deep.equal(['session_started', 'action']);
      });

      it('refuses invalid events listing every problem with its index, and stores nothing', async () => {
        const response = await api.request('POST', '/conversations/post3/tracker/events', {
          body: [{ event: 'slot' }, { event: 'bot', text: 'ok' }, { event: 'teleport' }, 'x'],
        });
        expect(response.status).to.equal(400);
        const body = response.json as Json & { details: { errors: { index: number; error: string }[] } };
        expect(body).to.include({ reason: 'BadRequest', code: 400 });
        expect(body.details.errors.map((problem) => problem.index)).to.deep.equal([0, 2, 3]);
        expect(body.details.errors[0]?.error).to.contain('"name" is required');
        expect(body['message']).to.contain("event 2: unknown event 'teleport'");
        expect(await api.store.loadAll('post3')).to.deep.equal([]);
      });

      it("refuses an empty list and a missing body with Rasa's messages", async () => {
        const empty = await api.request('POST', '/conversations/post4/tracker/events', { body: [] });
        expect(empty.json).to.deep.include({
          ...rasaError(400, 'BadRequest', { parameter: '', in: 'body' }),
          message: "Couldn't extract a proper event from the request body.",
        });
        const missing = await api.request('POST', '/conversations/post4/tracker/events');
        expect(missing.json).to.deep.include(rasaError(400, 'BadRequest'));
        const badFlag = await api.request(
          'POST',
          '/conversations/post4/tracker/events?execute_side_effects=maybe',
          {
            body: { event: 'restart' },
          },
        );
        expect(badFlag.json).to.deep.include(
          rasaError(400, 'BadRequest', { parameter: 'execute_side_effects', in: 'query' }),
        );
        expect(await api.store.loadAll('post4')).to.deep.equal([]);
      });

      it('appends concurrent posts to one conversation one after the other (the conversation lock)', async () => {
        const posts = Array.from({ length: 12 }, (_, index) =>
          api.request('POST', '/conversations/busy/tracker/events', {
            body: { event: 'slot', name: 'account', value: `v${index}` },
          }),
        );
        expect((await Promise.all(posts)).map((response) => response.status)).to.deep.equal(
          Array(12).fill(200),
        );
        const stored = await api.store.loadAll('busy');
        expect(names(stored)).to.deep.equal([...SESSION, ...Array(12).fill('slot')]);
      });
    });

    describe('PUT /conversations/:id/tracker/events', () => {
      it('replaces the events of a conversation with the ones given, adding no session', async () => {
        await api.request('POST', '/conversations/put1/tracker/events', { body: { event: 'restart' } });
        const response = await api.request('PUT', '/conversations/put1/tracker/events?include_events=ALL', {
          body: [
            { event: 'action', name: 'action_listen', timestamp: 10 },
            { event: 'slot', name: 'account', value: 'checking', timestamp: 11 },
          ],
        });
        expect(response.status).to.equal(200);
        const state = response.json as TrackerJson;
        expect(names(state.events)).to.deep.equal(['action', 'slot']);
        expect(state.slots['account']).to.equal('checking');
        expect(names(await api.store.loadAll('put1'))).to.deep.equal(['action', 'slot']);
        // the next turn builds on the replaced history
        const next = await api.request('POST', '/conversations/put1/tracker/events?include_events=ALL', {
          body: { event: 'slot', name: 'account', value: 'savings' },
        });
        expect(names((next.json as TrackerJson).events)).to.deep.equal(['action', 'slot', 'slot']);
      });

      it('keeps the old events when the new ones are invalid', async () => {
        await api.request('POST', '/conversations/put2/tracker/events', { body: { event: 'restart' } });
        const before = await api.store.loadAll('put2');
        const response = await api.request('PUT', '/conversations/put2/tracker/events', {
          body: [{ event: 'slot', name: 'account', value: 'x' }, { event: 'action' }],
        });
        expect(response.status).to.equal(400);
        expect((response.json as { details: { errors: unknown[] } }).details.errors).to.have.length(1);
        expect(await api.store.loadAll('put2')).to.deep.equal(before);
      });
    });

    describe('DELETE /conversations/:id/tracker', () => {
      it('deletes a conversation (204), then answers 404 for it', async () => {
        await api.request('POST', '/conversations/del1/tracker/events', { body: { event: 'restart' } });
        const deleted = await api.request('DELETE', '/conversations/del1/tracker');
        expect(deleted.status).to.equal(204);
        expect(await api.store.loadAll('del1')).to.deep.equal([]);
        const again = await api.request('DELETE', '/conversations/del1/tracker');
        expect(again.status).to.equal(404);
        expect(again.json).to.deep.include({
          ...rasaError(404, 'Not found'),
          message: 'Conversation ID not found.',
        });
      });
    });
  });
}

describe('HTTP API store failures', function () {
  this.timeout(30_000);
  let api: ApiServer;
  let store: FailingStore;

  before(async () => {
    store = new FailingStore();
    api = await startApiServer({ trackerStore: store });
  });
  after(() => api.close());

  const post = () =>
    api.request('POST', '/conversations/f1/tracker/events', {
      body: { event: 'slot', name: 'account', value: 'x' },
    });

  it('answers 409 Conflict when another writer appended first', async () => {
    store.failNext = new AppError({ code: 'TRACKER_CONFLICT', message: 'Conversation f1 changed.' });
    const response = await post();
    expect(response.status).to.equal(409);
    expect(response.json).to.deep.include({ ...rasaError(409, 'Conflict', { code: 'TRACKER_CONFLICT' }) });
  });

  it('answers 503 when the store is unavailable, 500 ConversationError for anything else', async () => {
    store.failNext = new AppError({ code: 'STORE_UNAVAILABLE', message: 'database down' });
    const down = await post();
    expect(down.status).to.equal(503);
    expect(down.json).to.deep.include(rasaError(503, 'ServiceUnavailable', { code: 'STORE_UNAVAILABLE' }));
    store.failNext = new Error('disk on fire');
    const broken = await post();
    expect(broken.status).to.equal(500);
    expect(broken.json).to.deep.include({
      ...rasaError(500, 'ConversationError'),
      message: 'An unexpected error occurred. Error: disk on fire',
    });
    expect((await post()).status).to.equal(200);
  });
});
