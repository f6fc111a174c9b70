import { expect } from 'chai';
import { load } from 'js-yaml';
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TrackerJson } from '../../src/core/events/tracker-json.js';
import type { Event } from '../../src/core/events/types.js';
import { startFakeOpenAi } from '../support/fake-openai.js';
import type { FakeOpenAi } from '../support/fake-openai.js';
import { rasaError, startApiServer } from './api-support.js';
import type { ApiServer } from './api-support.js';

type Json = Record<string, unknown>;

/** pattern_completed's question once a flow is done */
const ANYTHING_ELSE = 'Sure, what would you like me to help you with?';
type Prediction = { scores: { action: string; score: number }[]; policy: string; tracker: TrackerJson };

function eventNames(tracker: unknown): string[] {
  return ((tracker as TrackerJson).events ?? []).map((event) => event.event);
}

function botTexts(events: readonly Event[]): (string | null)[] {
  return events.flatMap((event) => (event.event === 'bot' ? [event.text] : []));
}

/** A stand-in for the callback channel's URL that records what it receives. */
async function callbackReceiver(): Promise<{ url: string; received: unknown[]; server: Server }> {
  const received: unknown[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(JSON.parse(body));
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, received, server };
}

describe('HTTP API routes (parley run --enable-api)', function () {
  this.timeout(30_000);
  let api: ApiServer;
  let callback: Awaited<ReturnType<typeof callbackReceiver>>;

  before(async () => {
    callback = await callbackReceiver();
    api = await startApiServer({ credentials: `rest:\ncallback:\n  url: ${callback.url}\n` });
  });
  after(async () => {
    await api.close();
    callback.server.close();
  });

  describe('GET /version and GET /status', () => {
    it('answers the version without auth', async () => {
      const response = await api.request('GET', '/version');
      expect(response.status).to.equal(200);
      expect(response.json).to.have.keys('version', 'minimum_compatible_version');
    });

    it("answers Rasa's status fields plus Parley's", async () => {
      const status = (await api.request('GET', '/status')).json as Json;
      expect(status).to.include({
        num_active_training_jobs: 0,
        assistant_id: 'api-test',
        understanding: 'nlu',
      });
      // the archive parley run trained on the way (models/<timestamp>-<name>.tar.gz) and its id
      expect(String(status['model_file'])).to.match(/^\d{8}-\d{6}-[\w-]+\.tar\.gz$/);
      expect(status['model_id']).to.be.a('string').and.not.equal('');
      expect(String(status['tracker_store'])).to.match(/memory/i);
      expect(String(status['lock_store'])).to.match(/memory/i);
    });
  });

  describe('GET /domain and GET /flows', () => {
    it('answers the domain as JSON by default, for */* and for application/json', async () => {
      for (const accept of [undefined, '*/*', 'application/json', 'text/html, application/json;q=0.9']) {
        const response = await api.request('GET', '/domain', accept ? { headers: { Accept: accept } } : {});
        expect(response.status, accept).to.equal(200);
        expect(response.type).to.contain('application/json');
        const domain = response.json as Json;
        expect(domain['intents']).to.deep.equal(['affirm', 'check_balance', 'greet']);
        expect(Object.keys(domain['responses'] as Json)).to.include('utter_done');
      }
    });

    it('answers the same domain as YAML for application/x-yaml', async () => {
      const json = (await api.request('GET', '/domain')).json;
      const yaml = await api.request('GET', '/domain', { headers: { Accept: 'application/x-yaml' } });
      expect(yaml.status).to.equal(200);
      expect(yaml.type).to.contain('application/x-yaml');
      expect(load(yaml.text)).to.deep.equal(json);
    });

    it('refuses other Accept types with 406 NotAcceptable', async () => {
      const response = await api.request('GET', '/domain', { headers: { Accept: 'text/html' } });
      expect(response.status).to.equal(406);
      expect(response.json).to.deep.include(rasaError(406, 'NotAcceptable'));
    });

    it("lists the flows in Rasa's JSON form, patterns included", async () => {
      const flows = (await api.request('GET', '/flows')).json as Json[];
      const balance = flows.find((flow) => flow['id'] === 'balance');
      expect(balance).to.deep.equal({
        id: 'balance',
        name: 'check a balance',
        description: 'show the balance of an account',
        always_include_in_prompt: false,
        run_pattern_completed: true,
        nlu_trigger: [{ intent: { name: 'check_balance', confidence_threshold: 0.5 } }],
        steps: [
          {
            id: 'balance_0_collect_account',
            collect: 'account',
            utter: 'utter_ask_account',
            collect_action: 'action_ask_account',
            ask_before_filling: false,
            reset_after_flow_ends: true,
            rejections: [],
            force_slot_filling: false,
            next: [{ if: 'slots.account = "savings"', then: 'done' }, { else: 'done' }],
          },
          { id: 'done', action: 'utter_done', next: 'END' },
        ],
      });
      expect(flows.map((flow) => flow['id'])).to.include('pattern_collect_information');
    });
  });

  describe('POST /model/parse', () => {
    it('answers the intent, entities and the commands the NLU pipeline gives', async () => {
      const response = await api.request('POST', '/model/parse', {
        body: { text: 'show my savings balance', message_id: 'm-1' },
      });
      expect(response.status).to.equal(200);
      const parsed = response.json as Json;
      expect(parsed).to.include({ text: 'show my savings balance', message_id: 'm-1' });
      expect((parsed['intent'] as Json)['name']).to.equal('check_balance');
      const entities = parsed['entities'] as Json[];
      const account = entities.find((entity) => entity['entity'] === 'account');
      expect(account).to.deep.include({
        entity: 'account',
        value: 'savings',
        start: 8,
        end: 15,
        extractor: 'PerceptronEntityExtractor',
      });
      // the tagger's own confidence: how sure depends on the training data, not on this route
      expect(account?.['confidence']).to.be.a('number').within(0.5, 1);
      expect(parsed['commands']).to.deep.equal([
        { command: 'start flow', flow: 'balance' },
        { command: 'set slot', name: 'account', value: 'savings', extractor: 'NLU' },
      ]);
    });

    it('refuses a missing body, a missing text and an emulation mode with 400', async () => {
      const none = await api.request('POST', '/model/parse');
      expect(none.status).to.equal(400);
      expect(none.json).to.deep.include(rasaError(400, 'BadRequest'));
      const noText = await api.request('POST', '/model/parse', { body: { message_id: 'x' } });
      expect(noText.json).to.deep.include(rasaError(400, 'BadRequest', { parameter: 'text', in: 'body' }));
      const emulated = await api.request('POST', '/model/parse?emulation_mode=LUIS', {
        body: { text: 'hi' },
      });
      expect(emulated.json).to.deep.include(
        rasaError(400, 'BadRequest', { parameter: 'emulation_mode', in: 'query' }),
      );
    });

    it('answers malformed JSON with 400 BadRequest', async () => {
      const response = await api.request('POST', '/model/parse', { rawBody: '{"text": ' });
      expect(response.status).to.equal(400);
      expect(response.json).to.deep.include(rasaError(400, 'BadRequest'));
    });
  });

  describe('POST /conversations/:id/trigger_intent', () => {
    it('starts the flow the intent triggers, fills slots from its entities and returns the messages', async () => {
      const response = await api.request('POST', '/conversations/t1/trigger_intent', {
        body: { name: 'check_balance', entities: { account: 'savings' } },
      });
      expect(response.status).to.equal(200);
      const body = response.json as { tracker: TrackerJson; messages: Json[] };
      expect(body.messages).to.deep.equal([
        { recipient_id: 't1', text: 'Done: savings.' },
        { recipient_id: 't1', text: ANYTHING_ELSE },
      ]);
      // filled from the entity (the flow has ended since, so the slot is reset again)
      const slots = body.tracker.events?.filter(
        (event) => event.event === 'slot' && event.name === 'account',
      );
      expect(slots?.map((event) => (event as { value: unknown }).value)).to.deep.equal(['savings', null]);
      const user = body.tracker.events?.find((event) => event.event === 'user');
      expect(user).to.deep.include({ text: 'EXTERNAL: check_balance', metadata: { is_external: true } });
      expect(body.tracker.latest_message?.intent).to.deep.equal({ name: 'check_balance', confidence: 1 });
    });

    it('takes entities as a list too, and asks for what is missing', async () => {
      const response = await api.request('POST', '/conversations/t2/trigger_intent', {
        body: { name: 'check_balance', entities: [] },
      });
      const body = response.json as { tracker: TrackerJson; messages: Json[] };
      expect(body.messages).to.deep.equal([{ recipient_id: 't2', text: 'Which account?' }]);
      expect(body.tracker.stack.map((frame) => frame.flow_id)).to.deep.equal([
        'balance',
        'pattern_collect_information',
      ]);
    });

    it('sends the messages through the channel output_channel names (the callback channel)', async () => {
      callback.received.length = 0;
      const response = await api.request('POST', '/conversations/t3/trigger_intent?output_channel=callback', {
        body: { name: 'greet' },
      });
      expect(response.status).to.equal(200);
      const sent = [
        { recipient_id: 't3', text: 'Hello!' },
        { recipient_id: 't3', text: ANYTHING_ELSE },
      ];
      expect(callback.received).to.deep.equal(sent);
      // the callback output is a collecting one in Rasa too, so the messages also come back
      expect((response.json as Json)['messages']).to.deep.equal(sent);
    });

    it("runs its turn through the server's turn gate: counted in the turn metrics as channel http_api", async () => {
      const count = async () => {
        const metrics = await api.request('GET', '/metrics');
        const line = /^parley_turns_total\{channel="http_api",outcome="ok"\} (\d+)$/m.exec(metrics.text);
        return Number(line?.[1] ?? 0);
      };
      const before = await count();
      await api.request('POST', '/conversations/t5/trigger_intent', { body: { name: 'greet' } });
      expect(await count()).to.equal(before + 1);
    });

    it('answers 404 NotFound for an intent the domain does not have, 400 without a name', async () => {
      const unknown = await api.request('POST', '/conversations/t4/trigger_intent', {
        body: { name: 'fly' },
      });
      expect(unknown.status).to.equal(404);
      expect(unknown.json).to.deep.include(rasaError(404, 'NotFound'));
      expect((unknown.json as Json)['message']).to.equal('The intent fly does not exist in the domain.');
      const nameless = await api.request('POST', '/conversations/t4/trigger_intent', { body: {} });
      expect(nameless.json).to.deep.include(rasaError(400, 'BadRequest', { parameter: 'name', in: 'body' }));
      const badEntities = await api.request('POST', '/conversations/t4/trigger_intent', {
        body: { name: 'greet', entities: 'savings' },
      });
      expect(badEntities.json).to.deep.include(
        rasaError(400, 'BadRequest', { parameter: 'entities', in: 'body' }),
      );
      expect(await api.store.loadAll('t4')).to.deep.equal([]);
    });
  });

  describe('POST /conversations/:id/tracker/events with execute_side_effects', () => {
    it('sends the posted bot messages through the channel output_channel names', async () => {
      callback.received.length = 0;
      const response = await api.request(
        'POST',
        '/conversations/s1/tracker/events?execute_side_effects=true&output_channel=callback',
        {
          body: [
            { event: 'bot', text: 'Your card is on its way.' },
            { event: 'slot', name: 'account', value: 'savings' },
          ],
        },
      );
      expect(response.status).to.equal(200);
      expect(callback.received).to.deep.equal([{ recipient_id: 's1', text: 'Your card is on its way.' }]);
    });

    it("uses the conversation's latest input channel for output_channel=latest, and sends nothing without the flag", async () => {
      await api.request('POST', '/conversations/s2/tracker/events', {
        body: { event: 'user', text: 'hi', input_channel: 'callback' },
      });
      callback.received.length = 0;
      await api.request('POST', '/conversations/s2/tracker/events?output_channel=latest', {
        body: { event: 'bot', text: 'not sent' },
      });
      expect(callback.received).to.deep.equal([]);
      await api.request(
        'POST',
        '/conversations/s2/tracker/events?execute_side_effects=true&output_channel=latest',
        {
          body: { event: 'bot', text: 'sent' },
        },
      );
      expect(callback.received).to.deep.equal([{ recipient_id: 's2', text: 'sent' }]);
    });
  });

  describe('POST /conversations/:id/messages', () => {
    it('records the user message with its understanding, without predicting', async () => {
      const response = await api.request('POST', '/conversations/m1/messages', {
        body: { text: 'show my savings balance', sender: 'user' },
      });
      expect(response.status).to.equal(200);
      const tracker = response.json as TrackerJson;
      expect(eventNames(tracker)).to.deep.equal(['action', 'session_started', 'action', 'user']);
      expect(tracker.latest_message?.intent.name).to.equal('check_balance');
      expect(tracker.latest_message?.commands).to.deep.include({ command: 'start flow', flow: 'balance' });
      // the commands are recorded, not applied: no flow started
      expect(tracker.stack).to.deep.equal([]);
      expect(botTexts(await api.store.loadAll('m1'))).to.deep.equal([]);
    });

    it('keeps the parse_data given, checked like an event', async () => {
      const parseData = { intent: { name: 'greet', confidence: 0.7 }, entities: [] };
      const response = await api.request('POST', '/conversations/m2/messages', {
        body: { text: 'hey', sender: 'user', parse_data: parseData },
      });
      expect((response.json as TrackerJson).latest_message).to.deep.include({ text: 'hey', ...parseData });
      const bad = await api.request('POST', '/conversations/m2/messages', {
        body: { text: 'hey', sender: 'user', parse_data: { entities: 'x' } },
      });
      expect(bad.json).to.deep.include(rasaError(400, 'BadRequest', { parameter: 'parse_data', in: 'body' }));
    });

    it('refuses another sender and a missing body with 400', async () => {
      const bot = await api.request('POST', '/conversations/m3/messages', {
        body: { text: 'hi', sender: 'bot' },
      });
      expect(bot.status).to.equal(400);
      expect(bot.json).to.deep.include(rasaError(400, 'BadRequest', { parameter: 'sender', in: 'body' }));
      expect((bot.json as Json)['message']).to.contain("Messages of sender 'bot' cannot be handled.");
      const none = await api.request('POST', '/conversations/m3/messages');
      expect(none.json).to.deep.include(rasaError(400, 'BadRequest'));
      expect(await api.store.loadAll('m3')).to.deep.equal([]);
    });
  });

  describe('POST /conversations/:id/predict', () => {
    it("predicts the flow policy's next action without running it", async () => {
      await api.request('POST', '/conversations/p1/trigger_intent', { body: { name: 'greet' } });
      const before = await api.store.loadAll('p1');
      const response = await api.request('POST', '/conversations/p1/predict');
      expect(response.status).to.equal(200);
      const body = response.json as Prediction;
      expect(body.scores[0]).to.deep.equal({ action: 'action_listen', score: 1 });
      expect(body.scores.slice(1).every((score) => score.score === 0)).to.equal(true);
      expect(body.scores.map((score) => score.action)).to.include.members([
        'utter_done',
        'action_session_start',
      ]);
      expect(body).to.include({ policy: 'FlowPolicy', confidence: 1 });
      expect(body.tracker.sender_id).to.equal('p1');
      expect(await api.store.loadAll('p1')).to.deep.equal(before);
    });

    it('predicts a followup action the conversation was given', async () => {
      await api.request('POST', '/conversations/p2/tracker/events', {
        body: { event: 'followup', name: 'utter_greet' },
      });
      const body = (await api.request('POST', '/conversations/p2/predict')).json as Prediction;
      expect(body.scores[0]).to.deep.equal({ action: 'utter_greet', score: 1 });
      expect(body.policy).to.equal('FollowupAction');
    });

    it("answers 404 'Not found' for an unknown conversation", async () => {
      const response = await api.request('POST', '/conversations/nobody/predict');
      expect(response.status).to.equal(404);
      expect(response.json).to.deep.include({
        ...rasaError(404, 'Not found'),
        message: 'Conversation ID not found.',
      });
    });
  });

  it('answers unknown API paths with the 404 body of the server', async () => {
    const response = await api.request('GET', '/conversations/x/nothing');
    expect(response.status).to.equal(404);
    expect(response.json).to.deep.include(rasaError(404, 'NotFound'));
  });
});

describe('HTTP API with an LLM command generator', function () {
  this.timeout(30_000);
  let fake: FakeOpenAi;
  let api: ApiServer;

  before(async () => {
    fake = await startFakeOpenAi();
    api = await startApiServer({
      config: `
        recipe: default.v1
        language: en
        assistant_id: api-llm
        pipeline:
          - name: CompactLLMCommandGenerator
            llm:
              model_group: g
      `,
      endpoints: `
        model_groups:
          - id: g
            models:
              - provider: self-hosted
                model: fake
                api_base: ${fake.apiBase}
                max_retries: 0
      `,
    });
  });
  after(async () => {
    await api.close();
    await fake.close();
  });

  it('parses to the intent-less parse data with the commands the LLM gives', async () => {
    fake.answer(() => 'start flow balance\nset slot account savings');
    const response = await api.request('POST', '/model/parse', {
      body: { text: 'my savings balance please' },
    });
    expect(response.status).to.equal(200);
    expect(response.json).to.deep.include({
      text: 'my savings balance please',
      intent: { name: null, confidence: 0 },
      entities: [],
      commands: [
        { command: 'start flow', flow: 'balance' },
        { command: 'set slot', name: 'account', value: 'savings', extractor: 'LLM' },
      ],
    });
    expect(fake.requests.at(-1)?.prompt).to.contain('my savings balance please');
    expect(((await api.request('GET', '/status')).json as Json)['understanding']).to.equal('llm');
  });
});
