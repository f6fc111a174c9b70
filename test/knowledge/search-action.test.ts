import { expect } from 'chai';
import { loadProject } from '../../src/project/load-project.js';
import type { Assistant } from '../../src/core/assistant.js';
import type { BotUttered, Event } from '../../src/core/events/types.js';
import { buildKnowledge } from '../../src/knowledge/build.js';
import type { KnowledgeIndex } from '../../src/knowledge/knowledge-index.js';
import { actionNames, startConversation, utterances } from '../support/inline-assistant.js';
import { writeInlineProject } from '../support/inline-project.js';
import {
  KNOWLEDGE_DOCS,
  KNOWLEDGE_DOMAIN,
  KNOWLEDGE_FLOWS,
  knowledgeConfig,
} from '../support/knowledge-project.js';

const ASK = [{ command: 'knowledge' as const }];

function knowledgeAssistant(options: { config?: string; docs?: Readonly<Record<string, string>> } = {}): {
  assistant: Assistant;
  index: KnowledgeIndex | undefined;
  root: string;
} {
  const root = writeInlineProject({
    domain: KNOWLEDGE_DOMAIN,
    flows: KNOWLEDGE_FLOWS,
    config: options.config ?? knowledgeConfig(),
    files: options.docs ?? KNOWLEDGE_DOCS,
  });
  const { project, diagnostics } = loadProject({ project: root });
  expect(diagnostics.hasErrors, JSON.stringify(diagnostics.all)).to.equal(false);
  const built = buildKnowledge(project.assistant.config, root);
  return { assistant: project.assistant, index: built.kind === 'index' ? built.index : undefined, root };
}

function bots(events: readonly Event[]): BotUttered[] {
  return events.filter((event): event is BotUttered => event.event === 'bot');
}

describe('action_trigger_search answering from the local knowledge index', () => {
  it('answers a question with the best passage, cited by its source file in Rasa’s format', async () => {
    const { assistant, index } = knowledgeAssistant();
    const conversation = await startConversation(assistant, { knowledge: index! });
    const events = await conversation.send('How long does international delivery take?', ASK);
    const [answer] = bots(events);
    expect(answer?.text).to.match(/^We ship to the Netherlands, Luxembourg, France and Germany\./);
    expect(answer?.text).to.contain('five to eight\nworking days');
    expect(answer?.text).to.match(/\nSources:\n\[1\] docs\/shipping\.txt$/);
    expect(actionNames(events)).to.include('action_trigger_search');
  });

  it('carries Rasa’s search metadata on the bot message: the passages, their sources, the query', async () => {
    const { assistant, index } = knowledgeAssistant();
    const conversation = await startConversation(assistant, { knowledge: index! });
    const [answer] = bots(await conversation.send('How do I get a refund for my return?', ASK));
    const metadata = answer?.metadata ?? {};
    expect(metadata['utter_source']).to.equal('EnterpriseSearchPolicy');
    expect(metadata['search_query']).to.equal('How do I get a refund for my return?');
    expect(metadata['search_sources']).to.be.an('array').that.includes('docs/returns.txt');
    expect((metadata['search_sources'] as string[])[0]).to.equal('docs/returns.txt');
    const results = metadata['search_results'] as string[];
    expect(results[0]).to.equal(answer?.text?.split('\nSources:')[0]);
  });

  it('answers a question of a Q:/A: document with the pair’s answer alone (Rasa’s extractive search)', async () => {
    const { assistant, index } = knowledgeAssistant();
    const conversation = await startConversation(assistant, { knowledge: index! });
    const [answer] = bots(
      await conversation.send('What are your opening hours? Is the shop open on Monday?', ASK),
    );
    expect(answer?.text).to.equal(
      'The shop in Ghent is open Tuesday to Saturday from 10:00 to 18:00. It is closed on Sundays and Mondays.',
    );
    expect(answer?.metadata?.['search_sources']).to.include('docs/faq/store.txt');
  });

  it('cites a pair’s answer too when citation_enabled is true, and no passage when it is false', async () => {
    const cited = knowledgeAssistant({ config: knowledgeConfig('citation_enabled: true') });
    const withCitation = await startConversation(cited.assistant, { knowledge: cited.index! });
    const [faq] = bots(await withCitation.send('Can I test ride a bicycle?', ASK));
    expect(faq?.text).to.match(/deposit\.\nSources:\n\[1\] docs\/faq\/store\.txt$/);

    const plain = knowledgeAssistant({ config: knowledgeConfig('citation_enabled: false') });
    const withoutCitation = await startConversation(plain.assistant, { knowledge: plain.index! });
    const [passage] = bots(await withoutCitation.send('Which parts does the warranty not cover?', ASK));
    expect(passage?.text).to.match(/^The warranty does not cover wear parts/);
    expect(passage?.text).not.to.contain('Sources:');
  });

  it('says it found nothing relevant (pattern_cannot_handle, utter_no_relevant_answer_found) for an unrelated question', async () => {
    const { assistant, index } = knowledgeAssistant();
    const conversation = await startConversation(assistant, { knowledge: index! });
    const events = await conversation.send('Who won the football match yesterday evening?', ASK);
    // pattern_search ends afterwards and, the stack being empty, pattern_completed asks what else (as in Rasa)
    expect(utterances(events)).to.deep.equal([
      'utter_no_relevant_answer_found',
      'utter_can_do_something_else',
    ]);
    expect(
      events.some((event) => event.event === 'flow_started' && event.flow_id === 'pattern_cannot_handle'),
    ).to.equal(true);
    expect(
      bots(events).some((event) => event.metadata?.['utter_source'] === 'EnterpriseSearchPolicy'),
    ).to.equal(false);
  });

  it('does not take one shared common word for an answer (a four-word question needs two matches)', async () => {
    const { assistant, index } = knowledgeAssistant();
    const conversation = await startConversation(assistant, { knowledge: index! });
    // its words: dog, come, train, day; "day" is in the shipping and returns documents, the rest nowhere
    const events = await conversation.send('Can my dog come on the train for days?', ASK);
    expect(utterances(events)[0]).to.equal('utter_no_relevant_answer_found');
  });

  it('says there is no knowledge base when the project has no documents', async () => {
    const { assistant, index } = knowledgeAssistant({ docs: {} });
    expect(index).to.equal(undefined);
    const conversation = await startConversation(assistant);
    const events = await conversation.send('How long does shipping take?', ASK);
    expect(utterances(events)).to.deep.equal(['utter_no_knowledge_base', 'utter_can_do_something_else']);
  });

  it('goes on with the conversation afterwards: the next question gets its own answer', async () => {
    const { assistant, index } = knowledgeAssistant();
    const conversation = await startConversation(assistant, { knowledge: index! });
    await conversation.send('How long does international delivery take?', ASK);
    const [second] = bots(await conversation.send('Is there a lifetime warranty on the steel frames?', ASK));
    expect(second?.text).to.match(/^Warranty\nOur steel frames carry a lifetime warranty/);
    expect(second?.metadata?.['search_sources']).to.deep.include('docs/warranty.txt');
  });
});
