import { readFileSync } from 'node:fs';
import { assetUrl } from '../../asset-paths.js';
import type { Command } from '../../core/commands/types.js';

/** The conversation-repair intents Parley's offline understanding knows, and the command each means. */
export const REPAIR_INTENT_COMMANDS: Readonly<Record<string, Command>> = {
  parley_cancel: { command: 'cancel flow' },
  parley_skip_question: { command: 'skip question' },
  parley_human_handoff: { command: 'human handoff' },
  parley_repeat: { command: 'repeat' },
  parley_restart: { command: 'restart' },
  parley_chitchat: { command: 'chitchat' },
  parley_out_of_scope: { command: 'cannot handle', reason: 'cannot_handle_not_supported' },
};

/**
 * The pattern each repair intent stands for. A project intent that is the `nlu_trigger` of one of these
 * patterns means the same repair (the bundled assistant's `cancel` triggers pattern_cancel_flow).
 */
export const REPAIR_INTENT_PATTERNS: Readonly<Record<string, string>> = {
  parley_cancel: 'pattern_cancel_flow',
  parley_skip_question: 'pattern_skip_question',
  parley_human_handoff: 'pattern_human_handoff',
  parley_repeat: 'pattern_repeat_bot_messages',
  parley_restart: 'pattern_restart',
  parley_chitchat: 'pattern_chitchat',
  parley_out_of_scope: 'pattern_cannot_handle',
};

/**
 * The project's own intents that mean a shipped repair: intent → repair intent, for every
 * `nlu_trigger` of a repair pattern among the flows.
 */
export function projectRepairIntents(
  flows: readonly { readonly id: string; readonly nluTriggers: readonly { readonly intent: string }[] }[],
): Map<string, string> {
  const repairs = new Map<string, string>();
  for (const [repair, pattern] of Object.entries(REPAIR_INTENT_PATTERNS)) {
    for (const flow of flows.filter((candidate) => candidate.id === pattern))
      for (const trigger of flow.nluTriggers) repairs.set(trigger.intent, repair);
  }
  return repairs;
}

const REPAIR_DATA = assetUrl('understanding/nlu/repair-intents.yml');

/** The shipped repair training data (Rasa nlu.yml text). */
export function repairTrainingDataText(): string {
  return readFileSync(REPAIR_DATA, 'utf8');
}
