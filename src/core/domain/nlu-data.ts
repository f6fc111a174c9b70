import type { SourceRef } from '../errors.js';

export interface EntityAnnotation {
  readonly start: number;
  readonly end: number;
  readonly entity: string;
  readonly value: string;
  readonly role?: string;
  readonly group?: string;
}

export interface TrainingExample {
  /** the example with annotation markup removed */
  readonly text: string;
  readonly entities: readonly EntityAnnotation[];
  readonly source?: SourceRef;
}

export interface IntentExamples {
  readonly intent: string;
  readonly examples: readonly TrainingExample[];
  readonly source?: SourceRef;
}

export interface NamedExamples {
  readonly name: string;
  readonly examples: readonly string[];
  readonly source?: SourceRef;
}

/** NLU training data (`nlu:` blocks): intents with examples, synonyms, regexes and lookup tables. */
export interface NluData {
  readonly intents: readonly IntentExamples[];
  /** synonym value -> the surface forms that map to it */
  readonly synonyms: readonly NamedExamples[];
  readonly regexes: readonly NamedExamples[];
  readonly lookups: readonly NamedExamples[];
}

export const EMPTY_NLU_DATA: NluData = { intents: [], synonyms: [], regexes: [], lookups: [] };
