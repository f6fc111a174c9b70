import type { Event, SerializedCommand } from '../core/events/types.js';
import type { Logger } from './logger.js';

const ACTION_LISTEN = 'action_listen';

/**
 * A turn the assistant let pass without a word and without changing anything: after the user's message,
 * only `action_listen`. Rasa does the same in such cases (e.g. a `/SetSlots(...)` for a slot no active
 * flow asks for is dropped); the warning says so, so that silence is never unexplained.
 */
export function isSilentTurn(events: readonly Event[]): boolean {
  const userIndex = events.findIndex((event) => event.event === 'user');
  if (userIndex === -1) return false;
  if (events.some((event) => event.event === 'bot')) return false;
  return events
    .slice(userIndex + 1)
    .every((event) => event.event === 'action' && event.name === ACTION_LISTEN);
}

/** Logs a silent turn with the commands understanding produced (names and slots, not values). */
export function warnIfSilent(logger: Logger, conversationId: string, events: readonly Event[]): void {
  if (!isSilentTurn(events)) return;
  const user = events.find((event) => event.event === 'user');
  const commands = user?.event === 'user' ? (user.parse_data.commands ?? []) : [];
  logger.warn(
    {
      conversationId,
      commands: commands.map(describeCommand),
      intent: user?.event === 'user' ? user.parse_data.intent.name : null,
    },
    commands.length === 0
      ? 'turn produced no bot message and no event: understanding found no command'
      : 'turn produced no bot message and no event: its commands changed nothing (e.g. a slot no active flow asks for)',
  );
}

function describeCommand(command: SerializedCommand): Record<string, unknown> {
  const { command: name, name: slot, flow } = command;
  return {
    command: name,
    ...(typeof slot === 'string' ? { slot } : {}),
    ...(typeof flow === 'string' ? { flow } : {}),
  };
}
