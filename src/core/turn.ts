import { applyCommands } from './commands/apply-commands.js';
import type { Command } from './commands/types.js';
import type { EngineContext } from './engine-context.js';
import { applyEvent } from './events/apply-event.js';
import { stackUpdateEvent } from './events/stack-update.js';
import { withoutStaleFrames } from './stack/stale-frames.js';
import type { TrackerState } from './events/tracker-state.js';
import type { Event, ParseData, UserUttered } from './events/types.js';

export interface UserMessage {
  readonly text: string;
  readonly parseData: ParseData;
  readonly commands: readonly Command[];
  readonly inputChannel?: string;
  readonly messageId?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * The start of a user turn: the `user` event (its parse data holds the commands, as in Rasa) followed by
 * the events of applying those commands. The prediction loop runs next.
 */
export function receiveUserMessage(
  state: TrackerState,
  message: UserMessage,
  context: EngineContext,
): { events: Event[]; state: TrackerState } {
  const user: UserUttered = {
    event: 'user',
    timestamp: context.now,
    text: message.text,
    parse_data: { ...message.parseData, commands: message.commands.map((command) => ({ ...command })) },
    input_channel: message.inputChannel ?? null,
    message_id: message.messageId ?? null,
    ...(message.metadata ? { metadata: message.metadata } : {}),
  };
  let current = applyEvent(state, user);
  const cleaned = cleanStack(current, context);
  if (cleaned) current = applyEvent(current, cleaned);
  const applied = applyCommands(current, message.commands, context);
  return { events: [user, ...(cleaned ? [cleaned] : []), ...applied.events], state: applied.state };
}

/** A stack update that drops frames of flows or steps the assistant no longer has, if there are any. */
function cleanStack(state: TrackerState, context: EngineContext): Event | undefined {
  const kept = withoutStaleFrames(state.stack, context.flows);
  return kept === state.stack ? undefined : stackUpdateEvent(state.stack, kept, context.now);
}
