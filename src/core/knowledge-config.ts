import type { AssistantConfig, ComponentConfig } from './assistant.js';

/** The policy that answers knowledge questions (pattern_search's `action_trigger_search`). */
export const SEARCH_POLICY = 'EnterpriseSearchPolicy';

/** Rasa's default vector store: FAISS over the `.txt` files of `./docs`, built at training time. */
export const DEFAULT_VECTOR_STORE_TYPE = 'faiss';
export const DEFAULT_KNOWLEDGE_SOURCE = './docs';
/** Rasa's default: the last user message and the bot message before it. */
export const DEFAULT_MAX_MESSAGES_IN_QUERY = 2;

/**
 * EnterpriseSearchPolicy's settings as Parley reads them (Rasa's keys and defaults). Parley searches a
 * local lexical (BM25) index of the documents in `source`, whatever `vector_store.type` says.
 */
export interface KnowledgeConfig {
  /** `vector_store.type` as written (`faiss` when absent) */
  readonly vectorStoreType: string;
  /** whether `vector_store.type` named a store (an absent type is FAISS, Rasa's default) */
  readonly vectorStoreTypeGiven: boolean;
  /** the document folder, relative to the project root (`vector_store.source`, default `./docs`) */
  readonly source: string;
  /** `vector_store.threshold`: Parley's minimum share of the question's words a passage contains */
  readonly threshold: number | undefined;
  /** `use_generative_llm` (default true): answer through the LLM when one is configured */
  readonly useGenerativeLlm: boolean;
  /** whether the policy has an `llm` setting (a model group or an inline model) */
  readonly hasLlm: boolean;
  /** `citation_enabled` as written: undefined when absent */
  readonly citationEnabled: boolean | undefined;
  readonly checkRelevancy: boolean;
  readonly maxMessagesInQuery: number;
  /** `max_history`: conversation turns shown to the LLM; undefined = all the tracker keeps */
  readonly maxHistory: number | undefined;
  /** the policy entry itself, for the LLM settings */
  readonly policy: ComponentConfig;
}

/** The EnterpriseSearchPolicy of config.yml; undefined when the project does not list it. */
export function knowledgeConfigOf(config: Pick<AssistantConfig, 'policies'>): KnowledgeConfig | undefined {
  const policy = config.policies.find((candidate) => candidate.name === SEARCH_POLICY);
  if (!policy) return undefined;
  const options = policy.options;
  const store = record(options['vector_store']);
  const type = typeof store['type'] === 'string' && store['type'].trim() !== '' ? store['type'] : undefined;
  const source =
    typeof store['source'] === 'string' && store['source'].trim() !== '' ? store['source'] : undefined;
  return {
    vectorStoreType: type ?? DEFAULT_VECTOR_STORE_TYPE,
    vectorStoreTypeGiven: type !== undefined,
    source: source ?? DEFAULT_KNOWLEDGE_SOURCE,
    threshold: positiveNumber(store['threshold']),
    useGenerativeLlm: options['use_generative_llm'] !== false,
    hasLlm: options['llm'] !== undefined && options['llm'] !== null,
    citationEnabled:
      typeof options['citation_enabled'] === 'boolean' ? options['citation_enabled'] : undefined,
    checkRelevancy: options['check_relevancy'] === true,
    maxMessagesInQuery: positiveInteger(options['max_messages_in_query']) ?? DEFAULT_MAX_MESSAGES_IN_QUERY,
    maxHistory: positiveInteger(options['max_history']),
    policy,
  };
}

/** Whether the answers are written by the policy's LLM (RAG) rather than taken from the best passage. */
export function answersWithLlm(config: KnowledgeConfig): boolean {
  return config.useGenerativeLlm && config.hasLlm;
}

function record(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function positiveNumber(value: unknown): number | undefined {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(parsed) && parsed > 0 ? parsed : undefined;
}

function positiveInteger(value: unknown): number | undefined {
  const parsed = positiveNumber(value);
  return parsed === undefined ? undefined : Math.max(1, Math.trunc(parsed));
}

/**
 * The one warning about the vector store: Parley never computes embeddings nor connects to a vector
 * database; FAISS (Rasa's default), Qdrant, Milvus and custom stores are all replaced by the local
 * lexical index of the documents in `source`.
 */
export function vectorStoreFallback(config: KnowledgeConfig): {
  readonly code: 'KNOWLEDGE_VECTOR_STORE_REPLACED';
  readonly message: string;
} {
  const type = config.vectorStoreType.toLowerCase();
  const what =
    type === DEFAULT_VECTOR_STORE_TYPE
      ? `the FAISS embedding search${config.vectorStoreTypeGiven ? '' : " (Rasa's default vector store)"}`
      : type === 'qdrant' || type === 'milvus'
        ? `the ${type} vector store of endpoints.yml`
        : `the custom vector store '${config.vectorStoreType}'`;
  return {
    code: 'KNOWLEDGE_VECTOR_STORE_REPLACED',
    message:
      `${SEARCH_POLICY}: Parley does not use ${what}; it answers from a local keyword (BM25) index of the ` +
      `.txt documents in ${config.source}, built by parley train.`,
  };
}
