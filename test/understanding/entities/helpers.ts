import { parse } from 'yaml';
import type { NluData } from '../../../src/core/domain/nlu-data.js';
import { nluDataFromDocument } from '../../../src/core/domain/nlu-examples.js';
import type { ExtractedEntity } from '../../../src/understanding/nlu/entities/index.js';

/** NLU training data from an inline `nlu.yml` document (indented as the test file likes). */
export function nlu(yaml: string): NluData {
  const lines = yaml.split('\n').filter((line) => line.trim() !== '');
  const indent = Math.min(...lines.map((line) => line.length - line.trimStart().length));
  return nluDataFromDocument(parse(lines.map((line) => line.slice(indent)).join('\n')));
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
