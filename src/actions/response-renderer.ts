import type { Assistant } from '../core/assistant.js';
import type { SlotType } from '../core/domain/types.js';
import type { TrackerState } from '../core/events/tracker-state.js';
import type { BotData, UnstampedEvent } from '../core/events/types.js';
import type { ActionRequest } from '../core/ports.js';
import { currentContext } from '../core/stack/operations.js';
import { responseName } from './action-server/action-result.js';
import type { ActionResponse } from './action-server/action-result.js';
import { renderResponse } from './responses/render.js';

const INTERNAL_ERROR_RESPONSE = 'utter_internal_error_rasa';
/**
 * Who set a slot's value without Rasa's coercion: a custom action's SlotSet and a flow's `set_slots`
 * step keep the value as sent (1200 stays 1200); commands and collect steps coerce (1200 -> 1200.0).
 */
const SET_AS_SENT = new Set(['CUSTOM', 'set_slots']);
const RESPONSE_KEYS = new Set([
  'text',
  'response',
  'template',
  'buttons',
  'image',
  'custom',
  'attachment',
  'elements',
  'quick_replies',
  'json_message',
]);

/** Turns responses (by name, or as sent by a custom action) into `bot` events. */
export class ResponseRenderer {
  private readonly assistant: Assistant;
  private readonly random: () => number;
  private readonly slotTypes: Readonly<Record<string, SlotType>>;

  constructor(options: { assistant: Assistant; random: () => number }) {
    this.assistant = options.assistant;
    this.random = options.random;
    this.slotTypes = Object.fromEntries(
      [...options.assistant.domain.slots.values()].map((slot) => [slot.name, slot.type]),
    );
  }

  /** A domain response; with no eligible variation, Rasa's internal-error response instead. */
  utter(name: string, request: ActionRequest, kwargs?: Readonly<Record<string, unknown>>): UnstampedEvent[] {
    const template = this.assistant.domain.responses.get(name);
    const rendered = template
      ? renderResponse(template, {
          slots: request.state.slots,
          slotTypes: this.slotTypesFor(request.state),
          context: currentContext(request.state.stack),
          random: this.random,
          ...(request.channel ? { channel: request.channel } : {}),
          ...(kwargs ? { kwargs } : {}),
        })
      : undefined;
    if (!rendered)
      return name === INTERNAL_ERROR_RESPONSE ? [] : this.utter(INTERNAL_ERROR_RESPONSE, request);
    return [
      {
        event: 'bot',
        text: rendered.message.text,
        data: rendered.message.data,
        metadata: rendered.message.metadata,
      },
    ];
  }

  /** The slot types as rendering sees them: a float slot holding a value set as sent prints it as sent. */
  private slotTypesFor(state: TrackerState): Readonly<Record<string, SlotType>> {
    const asSent = Object.entries(state.slotFilledBy).filter(
      ([name, filledBy]) => SET_AS_SENT.has(filledBy) && this.slotTypes[name] === 'float',
    );
    if (asSent.length === 0) return this.slotTypes;
    return { ...this.slotTypes, ...Object.fromEntries(asSent.map(([name]) => [name, 'any' as const])) };
  }

  /** A message from a custom action: a named response rendered with the other keys, or literal content. */
  fromActionResponse(response: ActionResponse, request: ActionRequest): UnstampedEvent[] {
    const name = responseName(response);
    const kwargs = responseArguments(response);
    if (name) {
      return this.utter(name, request, kwargs).map((event) =>
        event.event === 'bot' ? overlay(event, response) : event,
      );
    }
    const data: BotData = {
      elements: response.elements ?? null,
      quick_replies: response.quick_replies ?? null,
      buttons: (response.buttons as BotData['buttons']) ?? null,
      attachment: response.attachment ?? null,
      image: response.image ?? null,
      custom: response.custom ?? response.json_message ?? null,
    };
    return [{ event: 'bot', text: response.text ?? null, data, metadata: {} }];
  }
}

/** The template arguments of a custom action's response: every key that is not part of the message. */
export function responseArguments(response: ActionResponse): Record<string, unknown> {
  return Object.fromEntries(Object.entries(response).filter(([key]) => !RESPONSE_KEYS.has(key)));
}

/** Buttons a custom action passes are appended; other non-empty keys replace the rendered ones. */
function overlay(event: Extract<UnstampedEvent, { event: 'bot' }>, response: ActionResponse): UnstampedEvent {
  const extraButtons = Array.isArray(response.buttons)
    ? (response.buttons as NonNullable<BotData['buttons']>)
    : [];
  const data: BotData = {
    ...event.data,
    ...(extraButtons.length > 0 ? { buttons: [...(event.data.buttons ?? []), ...extraButtons] } : {}),
    ...(response.image ? { image: response.image } : {}),
    ...(response.custom ? { custom: response.custom } : {}),
  };
  return { ...event, ...(response.text ? { text: response.text } : {}), data };
}
