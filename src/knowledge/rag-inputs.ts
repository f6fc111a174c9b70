import { ENGINE_SLOTS } from '../core/domain/built-in-slots.js';
import type { KnowledgeConfig } from '../core/knowledge-config.js';
import type { ActionRequest } from '../core/ports.js';
import { displayValue, turnsFromState } from '../understanding/llm/prompt-inputs.js';
import type { KnowledgeHit } from './knowledge-index.js';
import { knowledgePrompt } from './prompt.js';
import type { PromptSlot } from './prompt.js';

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
