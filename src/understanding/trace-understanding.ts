/** Records where a generator's commands came from, when someone listens (the input's `trace`). */
import type { Command } from '../core/commands/types.js';
import type { TrackerState } from '../core/events/tracker-state.js';
import type { TraceSink, Understanding } from '../core/ports.js';
import type { CommandSource } from '../core/trace/trace-events.js';

export interface TracedInput {
  readonly state: TrackerState;
  readonly trace?: TraceSink;
}

export function traceUnderstood(
  input: TracedInput,
  source: CommandSource,
  commands: readonly Command[],
): void {
  input.trace?.record({
    type: 'commands_understood',
    conversationId: input.state.senderId,
    source,
    commands,
  });
}

/** A direct payload's understanding, recorded as such; returns it unchanged. */
export function tracedPayload(input: TracedInput, understood: Understanding): Understanding {
  if (!input.trace) return understood;
  const intent = understood.parseData.intent.name;
  traceUnderstood(
    input,
    intent === null
      ? { kind: 'payload', payload: 'set_slots' }
      : { kind: 'payload', payload: 'intent', intent },
    understood.commands,
  );
  return understood;
}
