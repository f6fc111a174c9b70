/** The inspector's routes on a real server: auth as the HTTP API's, bounds, a traced turn, restart, replay. */
import { expect } from 'chai';
import type { ConversationPage } from '../../src/core/ports.js';
import type { TraceEvent } from '../../src/core/trace/trace-events.js';
import type { ConversationView, ReplayStep } from '../../src/server/inspect/views.js';
import { startApiServer } from './api-support.js';
import type { ApiServer } from './api-support.js';

interface SendAnswer {
  messages: { text?: string }[];
  trace: TraceEvent[];
  view: ConversationView;
}

describe('inspector routes', function () {
  this.timeout(60_000);

  describe('with an auth token', () => {
    let api: ApiServer;
    before(async () => {
      api = await startApiServer({ auth: { token: 'secret' } });
    });
    after(() => api?.close());

    it('refuses the page and its API without the token, and serves them with it', async () => {
      expect((await api.request('GET', '/inspect')).status).to.equal(401);
      expect((await api.request('GET', '/inspect/api/conversations')).status).to.equal(401);
      expect((await api.request('GET', '/inspect/api/conversations?token=wrong')).status).to.equal(401);
      const page = await api.request('GET', '/inspect?token=secret');
      expect(page.status).to.equal(200);
      expect(page.type).to.contain('text/html');
      expect(page.text).to.contain('/inspect/assets/inspector.js');
      const listed = await api.request('GET', '/inspect/api/conversations?token=secret');
      expect(listed.status).to.equal(200);
    });

    it('serves the page with a strict content security policy and no referrer', async () => {
      const response = await fetch(`${api.server.baseUrl}/inspect?token=secret`);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).to.contain("default-src 'none'");
      expect(csp).to.contain("script-src 'self'");
      expect(csp).not.to.contain('unsafe-inline');
      expect(response.headers.get('referrer-policy')).to.equal('no-referrer');
    });

    it('serves only its own assets', async () => {
      const script = await api.request('GET', '/inspect/assets/inspector.js');
      expect(script.status).to.equal(200);
      expect(script.type).to.contain('javascript');
      expect((await api.request('GET', '/inspect/assets/..%2Fpackage.json')).status).to.equal(404);
      expect((await api.request('GET', '/inspect/assets/app.js')).status).to.equal(404);
    });
  });

  describe('with the HTTP API off', () => {
    let api: ApiServer;
    before(async () => {
      api = await startApiServer({ enableApi: false });
    });
    after(() => api?.close());

    it('has no inspector', async () => {
      expect((await api.request('GET', '/inspect')).status).to.equal(404);
      expect((await api.request('GET', '/inspect/api/conversations')).status).to.equal(404);
      const send = await api.request('POST', '/inspect/api/conversations/a/messages', {
        body: { text: 'hi' },
      });
      expect(send.status).to.equal(404);
    });
  });

  describe('open API', () => {
    let api: ApiServer;
    before(async () => {
      api = await startApiServer();
    });
    after(() => api?.close());

    it('refuses bad ids, page sizes and messages with 400', async () => {
      const long = 'x'.repeat(300);
      const bad = [
        ['GET', '/inspect/api/conversations?limit=0'],
        ['GET', '/inspect/api/conversations?limit=101'],
        ['GET', '/inspect/api/conversations?limit=ten'],
        ['GET', `/inspect/api/conversations?after=${long}`],
        ['GET', `/inspect/api/conversations/${long}`],
        ['GET', '/inspect/api/conversations/a/replay?offset=-1'],
        ['GET', '/inspect/api/conversations/a/replay?limit=501'],
      ];
      for (const [method, path] of bad)
        expect((await api.request(method as string, path as string)).status, path).to.equal(400);
      const messages = '/inspect/api/conversations/a/messages';
      for (const body of [{}, { text: 5 }, { text: '  ' }, { text: 'y'.repeat(10_001) }])
        expect(
          (await api.request('POST', messages, { body })).status,
          JSON.stringify(body).slice(0, 40),
        ).to.equal(400);
      expect((await api.request('POST', messages, { rawBody: '[1,2]' })).status).to.equal(400);
    });

    it('runs a turn with its trace: the source of the commands, the steps, the state after it', async () => {
      const sent = await api.request('POST', '/inspect/api/conversations/page-1/messages', {
        body: { text: 'show my savings balance' },
      });
      expect(sent.status).to.equal(200);
      const answer = sent.json as SendAnswer;
      expect(answer.messages.map((message) => message.text)).to.include('Done: savings.');
      const understood = answer.trace.find((event) => event.type === 'commands_understood');
      expect(understood?.type === 'commands_understood' && understood.source.kind).to.equal('nlu');
      expect(answer.trace.some((event) => event.type === 'step_visited' && event.stepId === 'done')).to.equal(
        true,
      );
      const turn = answer.view.turns.at(-1);
      expect(turn?.traced).to.equal('live');
      expect(turn?.text).to.equal('show my savings balance');
      const listed = (await api.request('GET', '/inspect/api/conversations')).json as ConversationPage;
      expect(listed.conversations.map((row) => row.conversationId)).to.include('page-1');
    });

    it('rebuilds the trace of a REST channel turn from its stored events', async () => {
      const rest = await api.request('POST', '/webhooks/rest/webhook', {
        body: { sender: 'rest-1', message: 'check my balance' },
      });
      expect(rest.status).to.equal(200);
      const view = (await api.request('GET', '/inspect/api/conversations/rest-1')).json as ConversationView;
      const turn = view.turns.at(-1);
      expect(turn?.traced).to.equal('stored');
      const source = turn?.trace.find((event) => event.type === 'commands_understood');
      expect(source?.type === 'commands_understood' && source.source.kind).to.equal('stored');
      expect(view.position?.flowId).to.equal('pattern_collect_information');
      expect(view.stack.map((frame) => frame.flow_id)).to.deep.equal([
        'balance',
        'pattern_collect_information',
      ]);
    });

    it("draws a flow's diagram with a conversation's current step and path", async () => {
      await api.request('POST', '/inspect/api/conversations/drawn/messages', {
        body: { text: 'check my balance' },
      });
      const drawn = await api.request('GET', '/inspect/api/flows/balance/diagram?conversation=drawn');
      expect(drawn.status).to.equal(200);
      expect(drawn.type).to.contain('image/svg+xml');
      expect(drawn.text).to.match(/class="[^"]*\bcurrent\b[^"]*" data-step-id="balance_0_collect_account"/);
      const plain = await api.request('GET', '/inspect/api/flows/balance/diagram');
      expect(plain.text).not.to.contain(' current');
      expect((await api.request('GET', '/inspect/api/flows/nope/diagram')).status).to.equal(404);
      const long = 'x'.repeat(300);
      expect(
        (await api.request('GET', `/inspect/api/flows/balance/diagram?conversation=${long}`)).status,
      ).to.equal(400);
      const flows = (await api.request('GET', '/inspect/api/flows')).json as {
        flows: { id: string }[];
        diagrams: boolean;
      };
      expect(flows.diagrams).to.equal(true);
      expect(flows.flows.map((flow) => flow.id)).to.include('balance');
    });

    it('restarts a conversation and replays its events one by one', async () => {
      await api.request('POST', '/inspect/api/conversations/page-2/messages', {
        body: { text: 'check my balance' },
      });
      const restarted = await api.request('POST', '/inspect/api/conversations/page-2/restart');
      expect(restarted.status).to.equal(200);
      const view = (restarted.json as { view: ConversationView }).view;
      expect(view.stack).to.deep.equal([]);
      const replay = await api.request('GET', '/inspect/api/conversations/page-2/replay?offset=0&limit=500');
      const steps = (replay.json as { steps: ReplayStep[] }).steps;
      expect(steps.map((step) => step.index)).to.deep.equal(steps.map((_step, index) => index));
      expect(steps.at(-1)?.event.event).to.equal('restart');
      const asking = steps.find((step) => step.stack.some((frame) => frame.flow_id === 'balance'));
      expect(asking, 'a step with the balance flow on the stack').not.to.equal(undefined);
      const late = await api.request('GET', '/inspect/api/conversations/page-2/replay?offset=3&limit=2');
      expect((late.json as { steps: ReplayStep[] }).steps.map((step) => step.index)).to.deep.equal([3, 4]);
    });
  });
});
