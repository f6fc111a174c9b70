import type { Assistant } from '../core/assistant.js';
import type { RuntimeBuiltInAction } from '../core/built-ins/types.js';
import {
  answersWithLlm,
  knowledgeConfigOf,
  SEARCH_POLICY,
  vectorStoreFallback,
} from '../core/knowledge-config.js';
import type { KnowledgeIndex } from '../knowledge/knowledge-index.js';
import { knowledgeSearchAction } from '../knowledge/search-action.js';
import type { Logger } from '../runtime/logger.js';
import type { Environment } from '../understanding/llm/config.js';
import { resolveComponentLlm } from '../understanding/llm/config.js';
import { OpenAiClient } from '../understanding/llm/openai-client.js';

/**
 * The searching `action_trigger_search` of a project with an EnterpriseSearchPolicy, over the index of
 * its model (none: `utter_no_knowledge_base`). Says at start-up what replaces the configured vector
 * store, and, when the policy's LLM cannot be set up, that the answers are the best passages instead.
 */
export function knowledgeBuiltIns(options: {
  readonly assistant: Assistant;
  readonly index: KnowledgeIndex | undefined;
  readonly logger?: Logger;
  readonly env?: Environment;
}): Map<string, RuntimeBuiltInAction> {
  const config = knowledgeConfigOf(options.assistant.config);
  if (!config) return new Map();
  const fallback = vectorStoreFallback(config);
  options.logger?.warn({ code: fallback.code }, fallback.message);
  if (!options.index)
    options.logger?.warn(
      { code: 'KNOWLEDGE_DOCUMENTS_MISSING' },
      `${SEARCH_POLICY}: the model has no knowledge index (no .txt documents in ${config.source} when it was trained); knowledge questions are answered with utter_no_knowledge_base.`,
    );
  let llm: OpenAiClient | undefined;
  if (options.index && answersWithLlm(config)) {
    const resolved = resolveComponentLlm(
      config.policy,
      options.assistant.endpoints,
      options.env ?? process.env,
    );
    if (resolved.ok) {
      llm = new OpenAiClient(resolved.client);
      for (const warning of resolved.warnings) options.logger?.warn({ section: 'knowledge' }, warning);
    } else
      options.logger?.warn(
        { code: resolved.error.code },
        `EnterpriseSearchPolicy: ${resolved.error.message} Knowledge questions are answered with the best passage instead.`,
      );
  }
  options.logger?.info(
    {
      passages: options.index?.chunks.length ?? 0,
      answers: options.index ? (llm ? 'llm' : 'passage') : 'no knowledge base',
    },
    'knowledge search ready',
  );
  return new Map([
    [
      'action_trigger_search',
      knowledgeSearchAction({ config, index: options.index, ...(llm ? { llm } : {}) }),
    ],
  ]);
}
