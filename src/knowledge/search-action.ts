/**
 * action_trigger_search with a knowledge base: what Rasa's EnterpriseSearchPolicy does when
 * pattern_search pushes its search frame. The question (the user's last message) is searched in the
 * local index; the answer is the best passage (offline) or the LLM's answer from the best passages
 * (RAG), sent as a bot message carrying Rasa's metadata (`search_results`, `search_query`,
 * `utter_source`). Nothing relevant found: pattern_cannot_handle with Rasa's no-relevant-answer reason.
 */
import { cannotHandleEffects, NO_RELEVANT_ANSWER_REASON } from '../core/built-ins/cannot-handle.js';
import type { ActionEffect, RuntimeBuiltInAction } from '../core/built-ins/types.js';
import { eventEffect, utterEffect } from '../core/built-ins/types.js';
import type { TrackerState } from '../core/events/tracker-state.js';
import { SEARCH_POLICY } from '../core/knowledge-config.js';
import type { KnowledgeConfig } from '../core/knowledge-config.js';
import type { ActionRequest } from '../core/ports.js';
import { LlmError } from '../understanding/llm/errors.js';
import type { ChatCompletionClient } from '../understanding/llm/openai-client.js';
import { postProcessCitations } from './citations.js';
import type { KnowledgeHit, KnowledgeIndex } from './knowledge-index.js';
import { NO_RAG_ANSWER } from './prompt.js';
import { ragPrompt } from './rag-inputs.js';

export interface KnowledgeSearchOptions {
  readonly config: KnowledgeConfig;
  /** undefined: the project has no documents, and the answer is `utter_no_knowledge_base` */
  readonly index: KnowledgeIndex | undefined;
  /** the policy's LLM: answers are generated from the passages (RAG); absent: the best passage */
  readonly llm?: ChatCompletionClient;
}

export function knowledgeSearchAction(options: KnowledgeSearchOptions): RuntimeBuiltInAction {
  return async (request) => {
    const { index, config } = options;
    if (!index) return [utterEffect('utter_no_knowledge_base')];
    const query = lastUserMessage(request.state);
    const hits = index.search(query, config.threshold === undefined ? {} : { threshold: config.threshold });
    if (hits.length === 0) return noRelevantAnswer(request);
    const text = options.llm ? await generated(options.llm, config, request, hits) : extracted(config, hits);
    if (text === undefined) return noRelevantAnswer(request);
    return [answer(text, query, hits)];
  };
}

/** The search query: the user's last message (see docs/knowledge.md on `max_messages_in_query`). */
export function lastUserMessage(state: TrackerState): string {
  for (let i = state.recentMessages.length - 1; i >= 0; i -= 1) {
    const message = state.recentMessages[i];
    if (message?.event === 'user') return message.text ?? '';
  }
  return '';
}

/**
 * The best passage as the answer: a question-and-answer pair answers with its answer (Rasa's extractive
 * search), cited when `citation_enabled` is true; a passage of text is quoted with its source in Rasa's
 * citation format unless `citation_enabled` is false.
 */
function extracted(config: KnowledgeConfig, hits: readonly KnowledgeHit[]): string | undefined {
  const best = hits[0];
  if (!best) return undefined;
  const { chunk } = best;
  const cite =
    chunk.answer !== undefined ? config.citationEnabled === true : config.citationEnabled !== false;
  const body = chunk.answer ?? chunk.text;
  return cite ? `${body}\nSources:\n[1] ${chunk.source}` : body;
}

async function generated(
  llm: ChatCompletionClient,
  config: KnowledgeConfig,
  request: ActionRequest,
  hits: readonly KnowledgeHit[],
): Promise<string | undefined> {
  const prompt = ragPrompt(config, request, hits);
  const result = await llm.complete([{ role: 'user', content: prompt }]);
  // the action fails, and the conversation gets pattern_internal_error, as Rasa's policy does
  if (!result.ok) throw result.error;
  const text = result.text.trim();
  if (config.checkRelevancy && text.includes(NO_RAG_ANSWER)) return undefined;
  if (text.length === 0)
    throw new LlmError({
      code: 'LLM_BAD_RESPONSE',
      message: 'The LLM answered the knowledge question with no text.',
    });
  return config.citationEnabled === true ? postProcessCitations(text) : text;
}

function answer(text: string, query: string, hits: readonly KnowledgeHit[]): ActionEffect {
  return eventEffect({
    event: 'bot',
    text,
    data: {},
    metadata: {
      search_results: hits.map((hit) => hit.chunk.text),
      search_sources: hits.map((hit) => hit.chunk.source),
      utter_source: SEARCH_POLICY,
      search_query: query,
    },
  });
}

function noRelevantAnswer(request: ActionRequest): ActionEffect[] {
  return cannotHandleEffects(request.state, request.engine, NO_RELEVANT_ANSWER_REASON);
}
