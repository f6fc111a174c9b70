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

describe('reading the EnterpriseSearchPolicy settings leniently', () => {
  const read = (options: Record<string, unknown>) => knowledgeConfigOf(policies(options))!;

  it('finds the policy by its exact name among the others', () => {
    const config = knowledgeConfigOf({
      policies: [
        { name: 'enterprisesearchpolicy', options: { max_history: 9 } },
        { name: 'EnterpriseSearchPolicy', options: { max_history: 4 } },
      ],
    });
    expect(config?.maxHistory).to.equal(4);
    expect(config?.policy.options).to.deep.equal({ max_history: 4 });
  });

  it('takes a blank or non-text store type and source for the defaults', () => {
    for (const vector_store of [
      { type: '  ', source: '  ' },
      { type: '', source: '' },
      { type: 3, source: ['docs'] },
      'faiss',
      ['x'],
      null,
    ]) {
      const config = read({ vector_store });
      expect(config, JSON.stringify(vector_store)).to.deep.include({
        vectorStoreType: 'faiss',
        vectorStoreTypeGiven: false,
        source: './docs',
      });
    }
  });

  it('counts a store type written as faiss as given', () => {
    expect(read({ vector_store: { type: 'faiss' } })).to.deep.include({
      vectorStoreType: 'faiss',
      vectorStoreTypeGiven: true,
    });
  });

  it('reads a positive threshold, also as text, and ignores any other', () => {
    expect(read({ vector_store: { threshold: '0.25' } }).threshold).to.equal(0.25);
    for (const threshold of [0, -0.5, 'high', null, true, Number.POSITIVE_INFINITY])
      expect(read({ vector_store: { threshold } }).threshold, String(threshold)).to.equal(undefined);
  });

  it('reads whole message and turn counts of at least 1, cutting fractions', () => {
    expect(read({ max_messages_in_query: 3.9, max_history: '5' })).to.deep.include({
      maxMessagesInQuery: 3,
      maxHistory: 5,
    });
    expect(read({ max_messages_in_query: 0.5, max_history: 0.2 })).to.deep.include({
      maxMessagesInQuery: 1,
      maxHistory: 1,
    });
    expect(read({ max_messages_in_query: 0, max_history: -2 })).to.deep.include({
      maxMessagesInQuery: 2,
      maxHistory: undefined,
    });
  });

  it('turns generative answers off only with use_generative_llm: false', () => {
    expect(read({ use_generative_llm: false }).useGenerativeLlm).to.equal(false);
    for (const value of [true, 'false', 0, null])
      expect(read({ use_generative_llm: value }).useGenerativeLlm, String(value)).to.equal(true);
  });

  it('checks relevancy only with check_relevancy: true, and keeps a boolean citation_enabled only', () => {
    expect(read({ check_relevancy: 'true' }).checkRelevancy).to.equal(false);
    expect(read({ citation_enabled: false }).citationEnabled).to.equal(false);
    expect(read({ citation_enabled: 'yes' }).citationEnabled).to.equal(undefined);
  });

  it('has an LLM for any llm setting but an empty one', () => {
    expect(read({ llm: null }).hasLlm).to.equal(false);
    expect(read({ llm: 'gpt' }).hasLlm).to.equal(true);
    expect(answersWithLlm(read({ llm: { model: 'gpt-4o' }, use_generative_llm: false }))).to.equal(false);
    expect(answersWithLlm(read({ llm: { model: 'gpt-4o' } }))).to.equal(true);
  });

  it('names the warning, the policy and the index in the vector store message', () => {
    const warning = vectorStoreFallback(read({ vector_store: { type: 'FAISS', source: 'kb' } }));
    expect(warning.code).to.equal('KNOWLEDGE_VECTOR_STORE_REPLACED');
    expect(warning.message).to.equal(
      'EnterpriseSearchPolicy: Parley does not use the FAISS embedding search; it answers from a local ' +
        'keyword (BM25) index of the .txt documents in kb, built by parley train.',
    );
    expect(vectorStoreFallback(read({ vector_store: { type: 'MILVUS' } })).message).to.contain(
      'does not use the milvus vector store of endpoints.yml;',
    );
  });
});
