import { expect } from 'chai';
import type { BotUttered, Event } from '../../src/core/events/types.js';
import { buildKnowledge } from '../../src/knowledge/build.js';
import { loadProject } from '../../src/project/load-project.js';
import { validateProject } from '../../src/project/validate/index.js';
import { startFakeOpenAi } from '../support/fake-openai.js';
import type { FakeOpenAi } from '../support/fake-openai.js';
import { flowsStarted, startConversation, utterances } from '../support/inline-assistant.js';
import { writeInlineProject } from '../support/inline-project.js';
import {
  KNOWLEDGE_DOCS,
  KNOWLEDGE_DOMAIN,
  KNOWLEDGE_FLOWS,
  knowledgeConfig,
} from '../support/knowledge-project.js';
import { recordingLogger } from '../support/recording-logger.js';

const ASK = [{ command: 'knowledge' as const }];

function bots(events: readonly Event[]): BotUttered[] {
  return events.filter((event): event is BotUttered => event.event === 'bot');
}

describe('action_trigger_search with the policy’s LLM: answers generated from the passages (RAG)', () => {
  let fake: FakeOpenAi;
  beforeEach(async () => (fake = await startFakeOpenAi()));
  afterEach(() => fake.close());

  async function ragConversation(policyExtra = '') {
    const root = writeInlineProject({
      domain: KNOWLEDGE_DOMAIN,
      flows: KNOWLEDGE_FLOWS,
      config: knowledgeConfig(`llm:\n  model_group: search_llm\n${policyExtra}`),
      endpoints: `
        model_groups:
          - id: search_llm
            models:
              - provider: self-hosted
                model: knowledge-model
                api_base: ${fake.apiBase}
                max_retries: 0
      `,
      files: KNOWLEDGE_DOCS,
    });
    const { project } = loadProject({ project: root });
    const built = buildKnowledge(project.assistant.config, root);
    if (built.kind !== 'index') throw new Error('no index');
    const logger = recordingLogger();
    const conversation = await startConversation(project.assistant, {
      knowledge: built.index,
      env: {},
      logger,
    });
    return { conversation, logger, root };
  }

  it('sends the best passages with their sources and the conversation, and answers with the LLM’s text', async () => {
    const { conversation } = await ragConversation();
    fake.answer(() => 'Orders abroad arrive in five to eight working days.');
    const events = await conversation.send('How long does international delivery take?', ASK);
    const [answer] = bots(events);
    expect(answer?.text).to.equal('Orders abroad arrive in five to eight working days.');
    expect(answer?.metadata?.['utter_source']).to.equal('EnterpriseSearchPolicy');
    expect(fake.requests).to.have.length(1);
    const prompt = fake.requests[0]?.prompt ?? '';
    expect(prompt).to.contain("{'source': 'docs/shipping.txt'}");
    expect(prompt).to.contain('International delivery takes five to eight\nworking days and costs 19 euros');
    expect(prompt).to.contain('USER: How long does international delivery take?');
    expect(prompt).not.to.contain('[NO_RAG_ANSWER]');
    expect(prompt).not.to.contain('Sources:');
    expect((fake.requests[0]?.body as { model?: string }).model).to.equal('knowledge-model');
  });

  it('sends no more than four passages, the most relevant first', async () => {
    const { conversation } = await ragConversation();
    fake.answer(() => 'Yes.');
    await conversation.send('Do you ship bicycles abroad, and what does delivery cost in euros?', ASK);
    const prompt = fake.requests[0]?.prompt ?? '';
    const listed = prompt.match(/^\* \{'source': '[^']+'\}$/gmu) ?? [];
    expect(listed.length).to.be.within(1, 4);
    expect(listed[0]).to.equal("* {'source': 'docs/shipping.txt'}");
  });

  it('with check_relevancy, takes [NO_RAG_ANSWER] for "nothing relevant" (utter_no_relevant_answer_found)', async () => {
    const { conversation } = await ragConversation('check_relevancy: true');
    fake.answer(() => '[NO_RAG_ANSWER]');
    const events = await conversation.send('Is the warranty valid for racing bicycles?', ASK);
    expect(fake.requests[0]?.prompt).to.contain('[NO_RAG_ANSWER]');
    expect(utterances(events)[0]).to.equal('utter_no_relevant_answer_found');
  });

  it('with citation_enabled, asks for sources and renumbers them in the order they are cited (as Rasa)', async () => {
    const { conversation } = await ragConversation('citation_enabled: true');
    fake.answer(
      () =>
        'Returns are accepted for 30 days. [2] Refunds take five working days. [2, 3]\n' +
        'Sources:\n[1] docs/shipping.txt\n[2] docs/returns.txt\n[3] docs/warranty.txt',
    );
    const [answer] = bots(await conversation.send('How do I return an item for a refund?', ASK));
    expect(fake.requests[0]?.prompt).to.contain('Sources:');
    expect(answer?.text).to.equal(
      'Returns are accepted for 30 days. [1] Refunds take five working days. [1, 2]\n' +
        'Sources:\n[1] docs/returns.txt\n[2] docs/warranty.txt\n[1] docs/shipping.txt',
    );
  });

  it('asks no LLM with use_generative_llm: false, and answers with the best passage', async () => {
    const { conversation } = await ragConversation('use_generative_llm: false');
    const [answer] = bots(await conversation.send('When are refunds paid?', ASK));
    expect(fake.requests).to.have.length(0);
    expect(answer?.text).to.match(/^Refunds are paid to the original payment method/);
  });

  it('warns (validate, and so the start-up log) that a custom prompt_template of the policy is not used', async () => {
    const { root } = await ragConversation('prompt_template: prompts/search.jinja2');
    const prompts = validateProject({ project: root }).diagnostics.filter(
      (diagnostic) => diagnostic.code === 'CONFIG_CUSTOM_PROMPT',
    );
    expect(prompts.map((diagnostic) => diagnostic.message)).to.deep.equal([
      "EnterpriseSearchPolicy: the custom prompt template 'prompts/search.jinja2' (prompt_template) is not used; Parley uses its own prompt.",
    ]);
  });

  it('asks no LLM when no passage is relevant', async () => {
    const { conversation } = await ragConversation();
    const events = await conversation.send('Who won the football match yesterday evening?', ASK);
    expect(fake.requests).to.have.length(0);
    expect(utterances(events)[0]).to.equal('utter_no_relevant_answer_found');
  });

  it('turns an LLM failure into pattern_internal_error, as Rasa’s policy does', async () => {
    const { conversation, logger } = await ragConversation();
    fake.answer(() => ({ status: 503 }));
    const events = await conversation.send('How long does international delivery take?', ASK);
    expect(flowsStarted(events)).to.include('pattern_internal_error');
    expect(utterances(events)).to.include('utter_internal_error_rasa');
    expect(
      logger.messages.some((message) => message.includes("action 'action_trigger_search' failed")),
    ).to.equal(true);
  });

  it('answers with the best passage when the policy’s LLM cannot be set up, and says so at start-up', async () => {
    const root = writeInlineProject({
      domain: KNOWLEDGE_DOMAIN,
      flows: KNOWLEDGE_FLOWS,
      config: knowledgeConfig('llm:\n  model_group: nowhere'),
      files: KNOWLEDGE_DOCS,
    });
    const { project } = loadProject({ project: root });
    const built = buildKnowledge(project.assistant.config, root);
    if (built.kind !== 'index') throw new Error('no index');
    const logger = recordingLogger();
    const conversation = await startConversation(project.assistant, {
      knowledge: built.index,
      env: {},
      logger,
    });
    expect(logger.warnings.some((warning) => warning.includes("model group 'nowhere'"))).to.equal(true);
    const [answer] = bots(await conversation.send('Is there a lifetime warranty on the steel frames?', ASK));
    expect(answer?.text).to.match(/^Warranty\nOur steel frames carry a lifetime warranty/);
  });
});
