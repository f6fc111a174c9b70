import { isPlainObject } from '../../core/events/json-value.js';
import type { EntityValue } from '../../core/events/types.js';
import { badRequest } from './api-error.js';

/**
 * `entities` of trigger_intent as Rasa takes them: a list of entity objects, or the short form
 * `{"entity": "value", ...}`. Rasa warns and drops anything else; Parley refuses it, so that a typo is
 * not silently ignored.
 */
export function entitiesFromBody(raw: unknown): EntityValue[] {
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) {
    const entities: EntityValue[] = [];
    for (const entity of raw) {
      if (!isPlainObject(entity) || typeof entity['entity'] !== 'string')
        throw badRequest('Each entity needs a string "entity" and a "value".', 'entities', 'body');
      entities.push({ ...entity, entity: entity['entity'], value: entity['value'] ?? null });
    }
    return entities;
  }
  if (isPlainObject(raw)) return Object.entries(raw).map(([entity, value]) => ({ entity, value }));
  throw badRequest(
    'Invalid "entities": give a list of entities or an object of entity names and values.',
    'entities',
    'body',
  );
}
