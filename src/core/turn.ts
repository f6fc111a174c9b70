import { applyCommands } from './commands/apply-commands.js';
import type { Command } from './commands/types.js';
import type { EngineContext } from './engine-context.js';
import { applyEvent } from './events/apply-event.js';
import { stackUpdateEvent } from './events/stack-update.js';
import { withoutStaleFrames } from './stack/stale-frames.js';
import { shallowCopy } from './events/json-value.js';
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
  // built by assignment: spreads of spread-made objects take V8's slow path (see shallowCopy)
  const parseData: { commands?: ParseData['commands'] } = shallowCopy(message.parseData);
  parseData.commands = message.commands.map((command) => shallowCopy(command));
  const user: { -readonly [K in keyof UserUttered]: UserUttered[K] } = {
    event: 'user',
    timestamp: context.now,
    text: message.text,
    parse_data: parseData as ParseData,
    input_channel: message.inputChannel ?? null,
    message_id: message.messageId ?? null,
  };
  if (message.metadata) user.metadata = message.metadata;
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
