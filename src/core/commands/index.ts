import { cancelFlowCommand } from './cancel-flow.js';
import { cannotHandleCommand } from './cannot-handle.js';
import { changeFlowCommand } from './change-flow.js';
import { chitchatCommand } from './chitchat.js';
import { clarifyCommand } from './clarify.js';
import { correctSlotsCommand } from './correct-slots.js';
import { errorCommand } from './error.js';
import { humanHandoffCommand } from './human-handoff.js';
import { knowledgeCommand } from './knowledge.js';
import { repeatBotMessagesCommand } from './repeat-bot-messages.js';
import { restartCommand } from './restart.js';
import { sessionStartCommand } from './session-start.js';
import { setSlotCommand } from './set-slot.js';
import { skipQuestionCommand } from './skip-question.js';
import { startFlowCommand } from './start-flow.js';
import type { Command, CommandDefinition, CommandName, CommandOf, CommandScope } from './types.js';

export type { Command, CommandName, CommandScope } from './types.js';

type Registry = { readonly [N in CommandName]: CommandDefinition<N> };

/** Every command the engine knows, by its serialised `command` name. */
export const COMMANDS: Registry = {
  'start flow': startFlowCommand,
  'set slot': setSlotCommand,
  'cancel flow': cancelFlowCommand,
  clarify: clarifyCommand,
  chitchat: chitchatCommand,
  knowledge: knowledgeCommand,
  'human handoff': humanHandoffCommand,
  'skip question': skipQuestionCommand,
  'cannot handle': cannotHandleCommand,
  'correct slot': correctSlotsCommand,
  repeat: repeatBotMessagesCommand,
  restart: restartCommand,
  'session start': sessionStartCommand,
  'change flow': changeFlowCommand,
  error: errorCommand,
};

/** Reads a serialised command (`{command: "set slot", name, value}`); undefined for unknown or malformed ones. */
export function parseCommand(raw: unknown): Command | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const record = raw as Record<string, unknown>;
  const name = record['command'];
  if (typeof name !== 'string' || !Object.hasOwn(COMMANDS, name)) return undefined;
  return COMMANDS[name as CommandName].parse(record);
}

export function applyCommand<N extends CommandName>(command: CommandOf<N>, scope: CommandScope): void {
  const definition = COMMANDS[command.command] as unknown as CommandDefinition<N>;
  definition.apply(command, scope);
}
