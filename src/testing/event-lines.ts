import type { Event, SerializedCommand } from '../core/events/types.js';
import { pyStr } from './python-values.js';

/** Internal slots Rasa leaves out of a failure's transcript. */
const HIDDEN_SLOTS = new Set(['requested_slot', 'session_started_metadata', 'flow_hashes', 'dialogue_stack']);

/**
 * One short line per event for failure reports, named after Rasa's event classes
 * (`BotUttered(text: ..., utter_action: ...)`). Stack updates and internal slots are left out.
 */
export function transcriptLines(events: readonly Event[]): string[] {
  return events.flatMap((event) => {
    const line = describeEvent(event);
    return line === undefined ? [] : [line];
  });
}

export function describeEvent(event: Event): string | undefined {
  switch (event.event) {
    case 'user': {
      const commands = event.parse_data.commands ?? [];
      const suffix = commands.length > 0 ? `, commands: [${commands.map(describeCommand).join('; ')}]` : '';
      return `UserUttered(text: ${event.text ?? ''}${suffix})`;
    }
    case 'bot':
      return `BotUttered(${describeBot(event)})`;
    case 'action':
      return `ActionExecuted(action: ${event.name})`;
    case 'slot':
      return HIDDEN_SLOTS.has(event.name)
        ? undefined
        : `SlotSet(key: ${event.name}, value: ${pyStr(event.value)})`;
    case 'stack':
      return undefined;
    case 'flow_started':
      return `FlowStarted(flow: ${event.flow_id})`;
    case 'flow_completed':
      return `FlowCompleted(flow: ${event.flow_id}, step_id: ${event.step_id})`;
    case 'flow_cancelled':
      return `FlowCancelled(flow: ${event.flow_id}, step_id: ${event.step_id})`;
    case 'flow_interrupted':
      return `FlowInterrupted(flow: ${event.flow_id}, step_id: ${event.step_id})`;
    case 'flow_resumed':
      return `FlowResumed(flow: ${event.flow_id}, step_id: ${event.step_id})`;
    case 'session_started':
      return 'SessionStarted()';
    case 'restart':
      return 'Restarted()';
    case 'reset_slots':
      return 'AllSlotsReset()';
    default: {
      const { event: name, timestamp: _timestamp, ...rest } = event;
      return `${name}(${JSON.stringify(rest)})`;
    }
  }
}

function describeBot(event: Extract<Event, { event: 'bot' }>): string {
  const parts = [`text: ${event.text ?? ''}`];
  const utterAction = event.metadata?.utter_action;
  if (typeof utterAction === 'string') parts.push(`utter_action: ${utterAction}`);
  const buttons = event.data.buttons ?? [];
  if (buttons.length > 0) {
    parts.push(`buttons: [${buttons.map((button) => `${button.title} -> ${button.payload}`).join(', ')}]`);
  }
  return parts.join(', ');
}

/** `start flow transfer_money`, `set slot amount=55`, `clarify add_payee list_payees`, `cancel flow`. */
export function describeCommand(command: SerializedCommand): string {
  const { command: name, ...fields } = command;
  switch (name) {
    case 'start flow':
      return `start flow ${pyStr(fields.flow)}`;
    case 'set slot':
      return `set slot ${pyStr(fields.name)}=${pyStr(fields.value)}`;
    case 'clarify':
      return `clarify ${Array.isArray(fields.options) ? fields.options.join(' ') : pyStr(fields.options)}`;
    default: {
      const values = Object.values(fields).map(pyStr);
      return [name, ...values].join(' ');
    }
  }
}
