import { parse } from 'yaml';
import type { NluData } from '../../../src/core/domain/nlu-data.js';
import { nluDataFromDocument } from '../../../src/core/domain/nlu-examples.js';
import type { ExtractedEntity } from '../../../src/understanding/nlu/entities/index.js';
import { dedent } from '../../support/inline-assistant.js';

/** NLU training data from an inline `nlu.yml` document. */
export function nlu(yaml: string): NluData {
  return nluDataFromDocument(parse(dedent(yaml)));
}

/** The parts of entities a test usually compares: name, value and the text they cover. */
export function summary(text: string, entities: readonly ExtractedEntity[]) {
  return entities.map((entity) => ({
    entity: entity.entity,
    value: entity.value,
    text: text.slice(entity.start, entity.end),
    ...(entity.role !== undefined ? { role: entity.role } : {}),
    ...(entity.group !== undefined ? { group: entity.group } : {}),
  }));
}

export const REFERENCE_DATE = '2025-12-10'; // a Wednesday
