import { expect } from 'chai';
import type { ComponentConfig } from '../../src/core/assistant.js';
import { answersWithLlm, knowledgeConfigOf, vectorStoreFallback } from '../../src/core/knowledge-config.js';

function policies(options: Record<string, unknown> | undefined): { policies: ComponentConfig[] } {
  return {
    policies: [
      { name: 'FlowPolicy', options: {} },
      ...(options ? [{ name: 'EnterpriseSearchPolicy', options }] : []),
    ],
  };
}

describe('the EnterpriseSearchPolicy settings Parley reads', () => {
  it('is absent without the policy', () => {
    expect(knowledgeConfigOf(policies(undefined))).to.equal(undefined);
  });

  it('has Rasa’s defaults: FAISS over ./docs, two messages in the query, generative answers on', () => {
    const config = knowledgeConfigOf(policies({}))!;
    expect(config).to.deep.include({
      vectorStoreType: 'faiss',
      vectorStoreTypeGiven: false,
      source: './docs',
      threshold: undefined,
      useGenerativeLlm: true,
      hasLlm: false,
      citationEnabled: undefined,
      checkRelevancy: false,
      maxMessagesInQuery: 2,
      maxHistory: undefined,
    });
    // without an `llm` on the policy, the answer is the best passage (Rasa would call its default OpenAI model)
    expect(answersWithLlm(config)).to.equal(false);
  });

  it('reads the store, the source, the LLM and the switches as written', () => {
    const config = knowledgeConfigOf(
      policies({
        vector_store: { type: 'Qdrant', source: 'knowledge/', threshold: 0.4 },
        llm: { model_group: 'rag' },
        use_generative_llm: true,
        citation_enabled: true,
        check_relevancy: true,
        max_messages_in_query: 3,
        max_history: 6,
      }),
    )!;
    expect(config).to.deep.include({
      vectorStoreType: 'Qdrant',
      source: 'knowledge/',
      threshold: 0.4,
      citationEnabled: true,
      checkRelevancy: true,
      maxMessagesInQuery: 3,
      maxHistory: 6,
    });
    expect(answersWithLlm(config)).to.equal(true);
    expect(answersWithLlm({ ...config, useGenerativeLlm: false })).to.equal(false);
  });

  it('says which vector store the local index replaces', () => {
    const message = (store: Record<string, unknown> | undefined) =>
      vectorStoreFallback(knowledgeConfigOf(policies(store ? { vector_store: store } : {}))!).message;
    expect(message(undefined)).to.contain("the FAISS embedding search (Rasa's default vector store)");
    expect(message({ type: 'faiss', source: './kb' })).to.contain('the FAISS embedding search;');
    expect(message({ type: 'faiss', source: './kb' })).to.contain('.txt documents in ./kb');
    expect(message({ type: 'milvus' })).to.contain('the milvus vector store of endpoints.yml');
    expect(message({ type: 'Qdrant' })).to.contain('the qdrant vector store of endpoints.yml');
    expect(message({ type: 'addons.stores.MyStore' })).to.contain(
      "the custom vector store 'addons.stores.MyStore'",
    );
  });
});
