import type {
  ActionDeclaration,
  Domain,
  IntentDeclaration,
  ResponseTemplate,
  SessionConfig,
  Slot,
} from '../../core/domain/types.js';
import { DEFAULT_SESSION_CONFIG } from '../../core/domain/types.js';
import type { SourceRef } from '../../core/errors.js';
import type { Section } from '../load/read-project.js';
import { asBoolean, isRecord, sourceAt } from './context.js';
import type { SourceContext } from './context.js';
import { buildResponse } from './responses.js';
import { buildSlot } from './slots.js';

export interface DomainPart {
  readonly section: Section;
  readonly context: SourceContext;
}

interface Builder {
  readonly slots: Map<string, Slot>;
  readonly responses: Map<string, ResponseTemplate>;
  readonly actions: Map<string, ActionDeclaration>;
  readonly intents: Map<string, IntentDeclaration>;
  readonly entities: Set<string>;
  readonly forms: Record<string, unknown>;
  sessionConfig: SessionConfig | undefined;
}

/**
 * Merges domain files in order. The first declaration of a name wins and a later one is reported;
 * parts marked as defaults (the engine's patterns) only fill names the project left out, silently.
 */
export function buildDomain(parts: readonly DomainPart[]): Domain {
  const builder: Builder = {
    slots: new Map(),
    responses: new Map(),
    actions: new Map(),
    intents: new Map(),
    entities: new Set(),
    forms: {},
    sessionConfig: undefined,
  };
  for (const part of parts) addPart(builder, part);
  return {
    intents: builder.intents,
    entities: [...builder.entities],
    slots: builder.slots,
    responses: builder.responses,
    actions: builder.actions,
    forms: builder.forms,
    sessionConfig: builder.sessionConfig ?? DEFAULT_SESSION_CONFIG,
  };
}

function addPart(builder: Builder, { section, context }: DomainPart): void {
  const { data } = section;
  const add = <T>(
    map: Map<string, T>,
    kind: string,
    name: string,
    path: (string | number)[],
    make: () => T,
  ): void => {
    if (map.has(name)) {
      if (!context.isDefault) reportDuplicate(context, kind, name, sourceAt(context, path));
      return;
    }
    map.set(name, make());
  };
  forEachEntry(data['slots'], (name, raw) => {
    if (isRecord(raw))
      add(builder.slots, 'slot', name, ['slots', name], () => buildSlot(name, raw, context, ['slots', name]));
  });
  forEachEntry(data['responses'], (name, raw) => {
    add(builder.responses, 'response', name, ['responses', name], () =>
      buildResponse(name, raw, context, ['responses', name]),
    );
  });
  namedItems(data['actions']).forEach(({ name, options }, index) => {
    const source = sourceAt(context, ['actions', index]);
    add(builder.actions, 'action', name, ['actions', index], () => ({
      name,
      sendDomain: asBoolean(options['send_domain'], false),
      ...(source ? { source } : {}),
    }));
  });
  namedItems(data['intents']).forEach(({ name, options }, index) => {
    const source = sourceAt(context, ['intents', index]);
    add(builder.intents, 'intent', name, ['intents', index], () => ({
      name,
      useEntities: Array.isArray(options['use_entities']) ? options['use_entities'].map(String) : true,
      ignoreEntities: Array.isArray(options['ignore_entities']) ? options['ignore_entities'].map(String) : [],
      ...(source ? { source } : {}),
    }));
  });
  namedItems(data['entities']).forEach(({ name }) => builder.entities.add(name));
  forEachEntry(data['forms'], (name, raw) => {
    builder.forms[name] ??= raw;
  });
  if (isRecord(data['session_config']) && !context.isDefault) {
    builder.sessionConfig ??= sessionConfig(data['session_config']);
  }
}

function reportDuplicate(
  context: SourceContext,
  kind: string,
  name: string,
  where: SourceRef | undefined,
): void {
  context.diagnostics.at(
    'DOMAIN_DUPLICATE',
    where,
    `The ${kind} '${name}' is declared more than once; this one is ignored.`,
  );
}

function forEachEntry(raw: unknown, visit: (name: string, value: unknown) => void): void {
  if (isRecord(raw)) for (const [name, value] of Object.entries(raw)) visit(name, value);
}

/** Domain lists whose items are `name` or `{name: {options}}` (actions, intents, entities). */
function namedItems(raw: unknown): { name: string; options: Record<string, unknown> }[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    if (typeof item === 'string') return [{ name: item, options: {} }];
    if (!isRecord(item)) return [];
    return Object.entries(item).map(([name, options]) => ({
      name,
      options: isRecord(options) ? options : {},
    }));
  });
}

function sessionConfig(raw: Record<string, unknown>): SessionConfig {
  const expiry = raw['session_expiration_time'];
  return {
    sessionExpirationTime: typeof expiry === 'number' ? expiry : DEFAULT_SESSION_CONFIG.sessionExpirationTime,
    carryOverSlotsToNewSession: asBoolean(
      raw['carry_over_slots_to_new_session'],
      DEFAULT_SESSION_CONFIG.carryOverSlotsToNewSession,
    ),
    startSessionAfterExpiry: asBoolean(
      raw['start_session_after_expiry'],
      DEFAULT_SESSION_CONFIG.startSessionAfterExpiry,
    ),
  };
}
