/**
 * A hybrid NLU + LLM project (test/fixtures/hybrid-travel) end to end: its real config, the NLU trained
 * from its nlu.yml, its rules and stories, and a local fake OpenAI server as the LLM. Each conversation
 * counts the requests the LLM received.
 */
import { expect } from 'chai';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeAgent } from '../../../src/cli/compose.js';
import { chooseUnderstanding } from '../../../src/cli/understanding.js';
import type { Assistant } from '../../../src/core/assistant.js';
import type { Event } from '../../../src/core/events/types.js';
import { loadProject } from '../../../src/project/load-project.js';
import type { Agent } from '../../../src/runtime/agent.js';
import { SILENT_LOGGER } from '../../../src/runtime/logger.js';
import { trainNlu } from '../../../src/understanding/nlu/pipeline.js';
import type { TrainedNlu } from '../../../src/understanding/nlu/pipeline.js';
import { startFakeOpenAi } from '../../support/fake-openai.js';
import type { FakeOpenAi, FakeRequest } from '../../support/fake-openai.js';
import { ManualClock, actionNames, utterances } from '../../support/inline-assistant.js';

const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'hybrid-travel');
const ROUTER_QUESTION = 'Pick the assistant';

function projectCopy(apiBase: string, edit: (config: string) => string = (config) => config): Assistant {
  const root = mkdtempSync(join(tmpdir(), 'parley-hybrid-'));
  cpSync(FIXTURE, root, { recursive: true });
  const config = readFileSync(join(root, 'config.yml'), 'utf8');
  writeFileSync(join(root, 'config.yml'), edit(config));
  writeFileSync(
    join(root, 'endpoints.yml'),
    `model_groups:\n  - id: fake_llm\n    models:\n      - provider: openai\n        model: fake-model\n        api_base: ${apiBase}\n        max_retries: 0\n`,
  );
  const { project, diagnostics } = loadProject({ project: root });
  if (diagnostics.hasErrors) throw new Error(JSON.stringify(diagnostics.all, null, 2));
  return project.assistant;
}

interface Talk {
  /** one user turn: the utterances (responses) it produced and the LLM requests it caused */
  say(
    text: string,
  ): Promise<{ said: string[]; actions: string[]; llm: FakeRequest[]; events: readonly Event[] }>;
  slots(): Promise<Readonly<Record<string, unknown>>>;
}

async function talk(assistant: Assistant, fake: FakeOpenAi, trained: TrainedNlu): Promise<Talk> {
  const understanding = chooseUnderstanding(assistant, {
    logger: SILENT_LOGGER,
    trained,
    env: { OPENAI_API_KEY: 'test-key' },
  });
  if (!understanding.ok) throw new Error(understanding.message);
  expect(understanding.kind).to.equal('hybrid');
  let ids = 0;
  const agent: Agent = await composeAgent({
    assistant,
    projectRoot: mkdtempSync(join(tmpdir(), 'parley-hybrid-actions-')),
    commandGenerator: understanding.generator,
    clock: new ManualClock(),
    ids: { frameId: () => `F${(ids += 1)}`, messageId: () => `M${(ids += 1)}` },
    random: () => 0,
  });
  return {
    async say(text) {
      const before = fake.requests.length;
      const { events } = await agent.handleMessage({ conversationId: 'traveller', text });
      return {
        said: utterances(events),
        actions: actionNames(events),
        llm: fake.requests.slice(before),
        events,
      };
    },
    slots: async () => (await agent.load('traveller')).state.slots,
  };
}

/** The fake LLM: the router question gets a letter, the command generator's prompt gets commands. */
function llm(routes: (message: string) => string, commands: (prompt: string) => string) {
  return (request: FakeRequest): string => {
    if (!request.prompt.includes(ROUTER_QUESTION)) return commands(request.prompt);
    const message = /User message: """([\s\S]*?)"""/.exec(request.prompt)?.[1] ?? '';
    return routes(message);
  };
}

/** The latest user message of a command generator prompt (its conversation lines read `USER: ...`). */
const latestUserLine = (prompt: string): string =>
  prompt
    .split('\n')
    .filter((line) => line.startsWith('USER: '))
    .at(-1) ?? '';

describe('A hybrid NLU + LLM project (coexistence) against a fake OpenAI server', function () {
  this.timeout(60_000);
  let fake: FakeOpenAi;
  let trained: TrainedNlu;

  before(async () => {
    fake = await startFakeOpenAi();
    trained = trainNlu(projectCopy(fake.apiBase), { projectDataOnly: true });
  });
  after(() => fake.close());

  describe('with IntentBasedRouter', () => {
    it('routes small talk to the stories, a flow trigger to CALM without the LLM, resets routing and routes again', async () => {
      fake.answer(
        llm(
          () => 'C',
          () => 'set slot travel_date next friday',
        ),
      );
      const conversation = await talk(projectCopy(fake.apiBase), fake, trained);

      const hello = await conversation.say('hello there');
      expect(hello.said).to.deep.equal(['utter_greet']);
      expect(hello.llm).to.have.length(0);
      expect((await conversation.slots())['route_session_to_calm']).to.equal(false);

      const great = await conversation.say('I feel great');
      expect(great.said).to.deep.equal(['utter_happy']);
      expect(great.actions).to.include('action_reset_routing');
      expect((await conversation.slots())['route_session_to_calm']).to.equal(null);

      const book = await conversation.say('I want to book a flight to Porto');
      expect(book.llm, 'minimize_num_calls: the NLU command adapter started the flow').to.have.length(0);
      expect(book.said).to.deep.equal(['utter_ask_travel_date']);
      expect(await conversation.slots()).to.include({ route_session_to_calm: true, destination: 'Porto' });

      const date = await conversation.say('next friday');
      expect(date.llm).to.have.length(1);
      expect(date.said).to.deep.equal(['utter_booked', 'utter_anything_else']);
      expect(date.actions).to.include('action_reset_routing');
      expect((await conversation.slots())['route_session_to_calm']).to.equal(null);

      const again = await conversation.say('hi');
      expect(again.said).to.deep.equal(['utter_greet']);
      expect(again.llm).to.have.length(0);
    });

    it('keeps a session routed to the NLU-based side there: a flow trigger then gets the fallback, not the flow', async () => {
      fake.answer(
        llm(
          () => 'C',
          () => 'start flow check_status',
        ),
      );
      const conversation = await talk(projectCopy(fake.apiBase), fake, trained);
      await conversation.say('hello there');
      const book = await conversation.say('I want to book a flight to Porto');
      expect(book.llm).to.have.length(0);
      expect(book.actions.filter((name) => name !== 'action_listen')).to.deep.equal([
        'action_default_fallback',
      ]);
      expect(book.events.some((event) => event.event === 'flow_started')).to.equal(false);
    });

    it('answers a non-sticky intent on the NLU side for that message only', async () => {
      fake.answer(
        llm(
          () => 'C',
          () => 'start flow check_status',
        ),
      );
      const conversation = await talk(projectCopy(fake.apiBase), fake, trained);
      const bot = await conversation.say('are you a bot?');
      expect(bot.said).to.deep.equal(['utter_iamabot']);
      expect((await conversation.slots())['route_session_to_calm']).to.equal(null);
      const status = await conversation.say('is my flight on time');
      expect(status.llm).to.have.length(1);
      expect(status.said).to.deep.equal(['utter_ask_booking_ref']);
    });

    it('with minimize_num_calls false asks the LLM as well and keeps the adapter flow and slot where both speak', async () => {
      fake.answer(
        llm(
          () => 'C',
          () => 'start flow check_status\nset slot destination Paris',
        ),
      );
      const config = (text: string): string =>
        text.replace('    flow_retrieval:\n', '    minimize_num_calls: false\n    flow_retrieval:\n');
      const conversation = await talk(projectCopy(fake.apiBase, config), fake, trained);
      const book = await conversation.say('I want to book a flight to Porto');
      expect(book.llm).to.have.length(1);
      expect(book.said).to.deep.equal(['utter_ask_travel_date']);
      expect(await conversation.slots()).to.include({ destination: 'Porto' });
      const started = book.events.flatMap((event) => (event.event === 'flow_started' ? [event.flow_id] : []));
      expect(started.filter((flow) => !flow.startsWith('pattern_'))).to.deep.equal(['book_flight']);
    });
  });

  describe('with LLMBasedRouter', () => {
    const llmRouter = (text: string): string =>
      text.replace(
        / {2}- name: IntentBasedRouter\n( {4}.*\n| {6}.*\n)*/,
        '  - name: LLMBasedRouter\n    calm_entry:\n      sticky: books flights and checks flight status\n    llm:\n      model_group: fake_llm\n',
      );

    it('asks the LLM where to route once per routing session, then follows the session', async () => {
      fake.answer(
        llm(
          (message) => (/flight|fly|book/i.test(message) ? 'A' : 'C'),
          (prompt) =>
            latestUserLine(prompt).includes('status')
              ? 'start flow check_status'
              : 'set slot booking_ref AB123',
        ),
      );
      const conversation = await talk(projectCopy(fake.apiBase, llmRouter), fake, trained);

      const hello = await conversation.say('hello there');
      expect(hello.llm.map((request) => request.prompt.includes(ROUTER_QUESTION))).to.deep.equal([true]);
      expect(hello.said).to.deep.equal(['utter_greet']);

      const sad = await conversation.say('I feel sad');
      expect(sad.llm, 'the session is routed: no router question').to.have.length(0);
      expect(sad.said).to.deep.equal(['utter_cheer_up']);
      expect((await conversation.slots())['route_session_to_calm']).to.equal(null);

      const status = await conversation.say('what is the status of my flight');
      expect(status.llm.map((request) => request.prompt.includes(ROUTER_QUESTION))).to.deep.equal([
        true,
        false,
      ]);
      expect(status.said).to.deep.equal(['utter_ask_booking_ref']);

      const ref = await conversation.say('AB123');
      expect(ref.llm.map((request) => request.prompt.includes(ROUTER_QUESTION))).to.deep.equal([false]);
      expect(ref.said).to.deep.equal(['utter_status', 'utter_anything_else']);
    });
  });
});
