import type { ResponseTemplate, ResponseVariation, SlotType } from '../../core/domain/types.js';
import type { BotUttered } from '../../core/events/types.js';
import { pyTruthy } from '../../core/flows/conditions/python-values.js';
import { formatValues, interpolateFormat, mapStrings, placeholderNames } from './interpolate.js';
import { jinjaScope, renderJinja } from './jinja.js';
import { selectVariation } from './select-variation.js';
import type { RenderedString, RenderWarning } from './warnings.js';

// Rasa's TemplatedNaturalLanguageGenerator + create_bot_utterance: pick a variation, fill in text,
// buttons (every key of a button, as Rasa sends the dict whole), image, custom, attachment and
// quick_replies (elements are passed through untouched, as Rasa does), and shape the result like a
// `bot` event.

export interface RenderInput {
  /** every domain slot by name; unset slots hold null */
  readonly slots: Readonly<Record<string, unknown>>;
  /** slot types by name; a number in a float slot prints as a Python float (50 -> "50.0") */
  readonly slotTypes?: Readonly<Record<string, SlotType>>;
  /** the context of the top stack frame (`{{ context.canceled_name }}`) */
  readonly context: Readonly<Record<string, unknown>>;
  /** the output channel's name, for channel-specific variations */
  readonly channel?: string;
  /** extra values, e.g. from a custom action's response or `value` for slot rejections; override slots */
  readonly kwargs?: Readonly<Record<string, unknown>>;
  /** a number in [0, 1), like Math.random; injected so a turn can be replayed */
  readonly random: () => number;
}

/** The `text`, `data` and `metadata` of a `bot` event; the caller adds the timestamp. */
export interface BotMessage {
  readonly text: string | null;
  readonly data: BotUttered['data'];
  readonly metadata: Record<string, unknown>;
}

export interface RenderedResponse {
  readonly message: BotMessage;
  /** the variation that was picked, as written in the domain (e.g. for the rephraser's `rephrase` flag) */
  readonly variation: ResponseVariation;
  readonly warnings: readonly RenderWarning[];
}

/**
 * Renders one of the response's variations. undefined when no variation is eligible; the caller
 * then utters `utter_internal_error_rasa`, as Rasa does.
 *
 * `metadata` is Rasa's shape: `{metadata: <the variation's metadata>, id?: <variation id>,
 * utter_action: <response name>}`, the variation's metadata nested under `metadata` and left out
 * when empty. The caller adds `utter_source`, `active_flow` and `step_id`.
 */
export function renderResponse(template: ResponseTemplate, input: RenderInput): RenderedResponse | undefined {
  const variation = selectVariation(template.variations, input);
  if (variation === undefined) return undefined;
  const warnings: RenderWarning[] = [];
  const render = stringRenderer(variation, input, warnings);
  const image = variation.image === undefined ? null : render(variation.image, 'image');
  const attachment = optional(variation.attachment, (value) => mapStrings(value, render, 'attachment'));
  const data: BotUttered['data'] = {
    elements: optional(variation.elements, (value) => structuredClone(value)),
    quick_replies: optional(variation.quickReplies, (value) => mapStrings(value, render, 'quick_replies')),
    buttons:
      variation.buttons.length === 0
        ? null
        : variation.buttons.map((button, index) => ({
            title: render(button.title, `buttons[${index}].title`),
            payload: render(button.payload, `buttons[${index}].payload`),
            ...(button.extra
              ? (mapStrings(button.extra, render, `buttons[${index}]`) as Record<string, unknown>)
              : {}),
          })),
    // Rasa, for legacy reasons: the image doubles as the attachment when there is no attachment
    attachment: pyTruthy(attachment) ? attachment : image,
    image,
    custom: optional(variation.custom, (value) => mapStrings(value, render, 'custom')),
  };
  const message: BotMessage = {
    text: variation.text === undefined ? null : render(variation.text, 'text'),
    data,
    metadata: messageMetadata(template.name, variation),
  };
  return { message, variation, warnings };
}

function stringRenderer(
  variation: ResponseVariation,
  input: RenderInput,
  warnings: RenderWarning[],
): (text: string, path: string) => string {
  const collect = (rendered: RenderedString): string => {
    warnings.push(...rendered.warnings);
    return rendered.text;
  };
  if (variation.metadata['template'] === 'jinja') {
    const scope = jinjaScope(input);
    return (text, path) => collect(renderJinja(text, scope, path));
  }
  // Most strings have no placeholder; the others get values for just the names they use.
  return (text, path) => {
    if (!text.includes('{') && !text.includes('}')) return text;
    return collect(interpolateFormat(text, formatValues(input, placeholderNames(text)), path));
  };
}

function optional(value: unknown, transform: (value: unknown) => unknown): unknown {
  return value === undefined || value === null ? null : transform(value);
}

function messageMetadata(name: string, variation: ResponseVariation): Record<string, unknown> {
  // built by assignment: conditional spreads take V8's slow copy path
  const metadata: Record<string, unknown> = {};
  if (Object.keys(variation.metadata).length > 0) metadata['metadata'] = structuredClone(variation.metadata);
  if (variation.id !== undefined) metadata['id'] = variation.id;
  metadata['utter_action'] = name;
  return metadata;
}
