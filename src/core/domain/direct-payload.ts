/**
 * Rasa's direct payloads, typed by buttons and tests instead of free text:
 * `/SetSlots(a=1, b=x)`, `/intent`, `/intent{"entity": "value"}` and `/intent@0.8{...}`.
 */
export type DirectPayload =
  | {
      readonly kind: 'set_slots';
      readonly slots: readonly { readonly name: string; readonly value: string }[];
    }
  | {
      readonly kind: 'intent';
      readonly intent: string;
      readonly confidence: number;
      readonly entities: readonly { readonly entity: string; readonly value: unknown }[];
    }
  | { readonly kind: 'invalid'; readonly reason: string };

/** Rasa reads at most this many slots from one `/SetSlots(...)` payload. */
export const MAX_SLOTS_PER_PAYLOAD = 10;

const SET_SLOTS = /^\/SetSlots\s*\((?<body>.*)\)\s*$/s;
const INTENT = /^\/(?<intent>[^{@\s]+)(?:@(?<confidence>[0-9.]+))?(?<entities>\{.*\})?\s*$/s;

/** Returns undefined when the text is not a direct payload (it is then understood as free text). */
export function parseDirectPayload(text: string): DirectPayload | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return undefined;
  if (/^\/SetSlots\b/.test(trimmed)) return parseSetSlots(trimmed);
  const match = INTENT.exec(trimmed);
  if (!match?.groups) return undefined;
  const { intent = '', confidence, entities } = match.groups;
  const parsedEntities = entities === undefined ? [] : parseEntities(entities);
  if (parsedEntities === undefined)
    return { kind: 'invalid', reason: `the entities of '${trimmed}' are not JSON` };
  const score = confidence === undefined ? 1 : Number(confidence);
  if (!Number.isFinite(score))
    return { kind: 'invalid', reason: `the confidence in '${trimmed}' is not a number` };
  return { kind: 'intent', intent, confidence: score, entities: parsedEntities };
}

function parseSetSlots(text: string): DirectPayload {
  const body = SET_SLOTS.exec(text)?.groups?.['body'];
  if (body === undefined)
    return { kind: 'invalid', reason: `'${text}' is not of the form /SetSlots(slot=value, ...)` };
  const slots: { name: string; value: string }[] = [];
  for (const part of body.split(',')) {
    if (part.trim() === '') continue;
    const equals = part.indexOf('=');
    const name = equals === -1 ? '' : part.slice(0, equals).trim();
    if (name === '') return { kind: 'invalid', reason: `'${part.trim()}' in '${text}' is not slot=value` };
    slots.push({ name, value: part.slice(equals + 1).trim() });
  }
  if (slots.length === 0) return { kind: 'invalid', reason: `'${text}' sets no slot` };
  return { kind: 'set_slots', slots };
}

/** INTENT hands over `{...}`, which JSON reads as an object or not at all. */
function parseEntities(json: string): { entity: string; value: unknown }[] | undefined {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  return Object.entries(parsed).map(([entity, value]) => ({ entity, value }));
}
