/**
 * Validates event dicts from outside (HTTP API, action server responses, stored trackers): a known
 * `event` name, its required fields with the right types, unknown extra fields kept as they are.
 * A missing or null `timestamp` (what rasa-sdk sends) becomes `now`; a null `metadata` is dropped.
 */
import { assertNever } from '../errors.js';
import type { FieldRule, FieldRules, FieldType } from './event-fields.js';
import { EVENT_FIELDS } from './event-fields.js';
import { hasOwn, isPlainObject } from './json-value.js';
import type { Event, EventType, IntentPrediction } from './types.js';

export type ParseEventResult =
  { readonly ok: true; readonly event: Event } | { readonly ok: false; readonly error: string };

export interface EventParseError {
  /** position in the input list (-1 when the input is not a list) */
  readonly index: number;
  readonly error: string;
}

export type ParseEventsResult =
  | { readonly ok: true; readonly events: Event[] }
  | { readonly ok: false; readonly errors: readonly EventParseError[] };

type Fields = Record<string, unknown>;

export function parseEvent(raw: unknown, now: number): ParseEventResult {
  if (!isPlainObject(raw)) return { ok: false, error: 'an event must be an object' };
  const type = raw.event;
  if (typeof type !== 'string') return { ok: false, error: 'an event needs a string "event"' };
  if (!isEventType(type)) return { ok: false, error: `unknown event '${type}'` };
  const fields: Fields = { ...raw };
  const problem =
    checkCommonFields(fields, now) ??
    checkFields(fields, EVENT_FIELDS[type]) ??
    checkSpecialFields(type, fields);
  if (problem !== undefined) return { ok: false, error: `event '${type}': ${problem}` };
  // every field the Event union declares for this type has been checked above
  return { ok: true, event: fields as unknown as Event };
}

/** All events, or every error with its index. */
export function parseEvents(raw: unknown, now: number): ParseEventsResult {
  if (!Array.isArray(raw)) return { ok: false, errors: [{ index: -1, error: 'events must be a list' }] };
  const events: Event[] = [];
  const errors: EventParseError[] = [];
  raw.forEach((item: unknown, index) => {
    const result = parseEvent(item, now);
    if (result.ok) events.push(result.event);
    else errors.push({ index, error: result.error });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, events };
}

export function isEventType(name: string): name is EventType {
  return hasOwn(EVENT_FIELDS, name);
}

function checkCommonFields(fields: Fields, now: number): string | undefined {
  const { timestamp, metadata } = fields;
  if (timestamp === undefined || timestamp === null) fields.timestamp = now;
  else if (typeof timestamp !== 'number' || !Number.isFinite(timestamp))
    return '"timestamp" must be a number or null';
  if (metadata === null) delete fields.metadata;
  else if (metadata !== undefined && !isPlainObject(metadata)) return '"metadata" must be an object';
  return undefined;
}

function checkFields(fields: Fields, rules: FieldRules): string | undefined {
  for (const [name, rule] of Object.entries(rules)) {
    const problem = checkField(fields, name, rule);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function checkField(fields: Fields, name: string, rule: FieldRule): string | undefined {
  const value = fields[name];
  const absent = value === undefined || (value === null && !rule.nullable && rule.type !== 'any');
  if (!absent) return value === null || hasType(value, rule.type) ? undefined : wrongType(name, rule);
  if (rule.fallback !== undefined) fields[name] = rule.fallback;
  else if (rule.required) return value === null ? wrongType(name, rule) : `"${name}" is required`;
  else if (value === null) return wrongType(name, rule);
  return undefined;
}

function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'any':
      return true;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
    case 'boolean':
      return typeof value === type;
    default:
      return assertNever(type, 'field type');
  }
}

function wrongType(name: string, rule: FieldRule): string {
  const article = rule.type === 'array' || rule.type === 'object' ? 'an' : 'a';
  return `"${name}" must be ${article} ${rule.type}${rule.nullable ? ' or null' : ''}`;
}

function checkSpecialFields(type: EventType, fields: Fields): string | undefined {
  if (type === 'user') return normaliseParseData(fields);
  if (type === 'entities') return entitiesProblem(fields.entities, 'entities');
  return undefined;
}

/** A missing parse_data, intent or entities list gets an empty one; present ones must be well-formed. */
function normaliseParseData(fields: Fields): string | undefined {
  const given = fields.parse_data;
  const raw = given === undefined || given === null ? { text: fields.text } : given;
  if (!isPlainObject(raw)) return '"parse_data" must be an object';
  const intent = normaliseIntent(raw.intent);
  if (typeof intent === 'string') return intent;
  const entities = raw.entities ?? [];
  const problem = entitiesProblem(entities, 'parse_data.entities');
  if (problem !== undefined) return problem;
  fields.parse_data = { ...raw, intent, entities };
  return undefined;
}

/** A named intent without a confidence was given explicitly (e.g. by an action), so it counts as certain. */
function normaliseIntent(raw: unknown): IntentPrediction | string {
  if (raw === undefined || raw === null) return { name: null, confidence: 0 };
  if (!isPlainObject(raw)) return '"parse_data.intent" must be an object';
  const { name = null, confidence = name === null ? 0 : 1 } = raw;
  if (name !== null && typeof name !== 'string') return '"parse_data.intent.name" must be a string or null';
  if (typeof confidence !== 'number') return '"parse_data.intent.confidence" must be a number';
  return { ...raw, name, confidence };
}

function entitiesProblem(value: unknown, where: string): string | undefined {
  if (!Array.isArray(value)) return `"${where}" must be an array`;
  const index = value.findIndex(
    (entity: unknown) => !isPlainObject(entity) || typeof entity.entity !== 'string',
  );
  return index === -1 ? undefined : `"${where}[${index}]" must be an object with a string "entity"`;
}
