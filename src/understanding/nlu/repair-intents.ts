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

const REPAIR_DATA = assetUrl('understanding/nlu/repair-intents.yml');

/** The shipped repair training data (Rasa nlu.yml text). */
export function repairTrainingDataText(): string {
  return readFileSync(REPAIR_DATA, 'utf8');
}
