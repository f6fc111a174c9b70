import type { KnowledgeConfig } from '../core/knowledge-config.js';
import type { ActionRequest } from '../core/ports.js';
import { displayValue, turnsFromState } from '../understanding/llm/prompt-inputs.js';
import type { KnowledgeHit } from './knowledge-index.js';
import { knowledgePrompt } from './prompt.js';
import type { PromptSlot } from './prompt.js';

/** Slots of the engine and of the default patterns: Rasa leaves its default slots out of the prompt. */
const ENGINE_SLOTS = new Set([
  'dialogue_stack',
  'requested_slot',
  'flow_hashes',
  'return_value',
  'session_started_metadata',
  'mocked_datetime',
  'route_session_to_calm',
  'interrupted_flow_to_continue',
  'continue_interrupted_flow_confirmation',
  'confirm_correction',
  'silence_timeout',
  'consecutive_silence_timeouts',
  'max_clarification_options',
  'continue_conversation',
  'csat_score',
]);

/** The RAG prompt for a turn: the passages, the filled slots and the conversation (`max_history` messages). */
export function ragPrompt(
  config: KnowledgeConfig,
  request: ActionRequest,
  hits: readonly KnowledgeHit[],
): string {
  const turns = turnsFromState(request.state);
  const shown = config.maxHistory === undefined ? turns : turns.slice(-config.maxHistory);
  return knowledgePrompt({
    hits,
    slots: filledSlots(request),
    transcript: shown.map((turn) => `${turn.role === 'user' ? 'USER' : 'AI'}: ${turn.text}`).join('\n'),
    citationEnabled: config.citationEnabled === true,
    checkRelevancy: config.checkRelevancy,
  });
}

function filledSlots(request: ActionRequest): PromptSlot[] {
  return Object.entries(request.state.slots).flatMap(([name, value]) => {
    if (ENGINE_SLOTS.has(name) || value === null || value === undefined) return [];
    const type = request.engine.domain.slots.get(name)?.type ?? 'any';
    return [{ name, value: displayValue(value), type }];
  });
}
