import type { Assistant } from '../core/assistant.js';
import type { RuntimeBuiltInAction } from '../core/built-ins/types.js';
import { answersWithLlm, knowledgeConfigOf, SEARCH_POLICY } from '../core/knowledge-config.js';
import type { KnowledgeConfig } from '../core/knowledge-config.js';
import type { KnowledgeIndex } from '../knowledge/knowledge-index.js';
import { knowledgeSearchAction } from '../knowledge/search-action.js';
import type { Logger } from '../runtime/logger.js';
import type { Environment } from '../understanding/llm/config.js';
import { resolveComponentLlm } from '../understanding/llm/config.js';
import { OpenAiClient } from '../understanding/llm/openai-client.js';

export interface KnowledgeSetupOptions {
  readonly assistant: Assistant;
  /** the model's knowledge index; undefined when it has none */
  readonly index: KnowledgeIndex | undefined;
  readonly logger?: Logger;
  readonly env?: Environment;
}

/**
 * The searching `action_trigger_search` of a project with an EnterpriseSearchPolicy, over the index of
 * its model (none: `utter_no_knowledge_base`). What replaces the configured vector store, a missing
 * knowledge base and an unused prompt are validation warnings, which the start-up log repeats; here only
 * an LLM setting that does not resolve is said.
 */
export function knowledgeBuiltIns(options: KnowledgeSetupOptions): Map<string, RuntimeBuiltInAction> {
  const config = knowledgeConfigOf(options.assistant.config);
  if (!config) return new Map();
  const { logger, index } = options;
  const llm = index && answersWithLlm(config) ? knowledgeLlm(config, options) : undefined;
  logger?.info(
    { passages: index?.chunks.length ?? 0, answers: index ? (llm ? 'llm' : 'passage') : 'none' },
    'knowledge search ready',
  );
  const action = knowledgeSearchAction({ config, index, ...(llm ? { llm } : {}) });
  return new Map([['action_trigger_search', action]]);
}

/** The policy's LLM client; undefined (with a warning) when its settings do not resolve. */
function knowledgeLlm(config: KnowledgeConfig, options: KnowledgeSetupOptions): OpenAiClient | undefined {
  const { logger } = options;
  const resolved = resolveComponentLlm(
    config.policy,
    options.assistant.endpoints,
    options.env ?? process.env,
  );
  if (!resolved.ok) {
    logger?.warn(
      { code: resolved.error.code },
      `${SEARCH_POLICY}: ${resolved.error.message} Knowledge questions are answered with the best passage instead.`,
    );
    return undefined;
  }
  for (const warning of resolved.warnings) logger?.warn({ section: 'knowledge' }, warning);
  return new OpenAiClient(resolved.client);
}
