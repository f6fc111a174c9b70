import type { NluData } from '../../../core/domain/nlu-data.js';
import { PatternSet } from './patterns.js';
import type { PatternOptions, PatternTable } from './patterns.js';
import type { ExtractedEntity } from './types.js';

export interface RegexExtractorJson {
  readonly tables: readonly PatternTable[];
  readonly caseSensitive: boolean;
  readonly useWordBoundaries: boolean;
}

/**
 * Rasa's RegexEntityExtractor: every `regex:` and `lookup:` table whose name is also an entity annotated
 * in the training examples extracts that entity wherever it matches; the value is the matched text.
 */
export class RegexEntityExtractor {
  private readonly patterns: PatternSet;

  constructor(options: { tables: readonly PatternTable[] } & PatternOptions) {
    this.patterns = new PatternSet(options);
  }

  /** The extractor for `nluData`, or undefined when no table is named after an annotated entity. */
  static fromNluData(nluData: NluData, options: PatternOptions = {}): RegexEntityExtractor | undefined {
    const entities = annotatedEntities(nluData);
    const tables = patternTables(nluData).filter((table) => entities.has(table.name));
    return tables.length === 0 ? undefined : new RegexEntityExtractor({ ...options, tables });
  }

  static fromJSON(json: RegexExtractorJson): RegexEntityExtractor {
    return new RegexEntityExtractor(json);
  }

  get invalidPatterns(): PatternSet['invalid'] {
    return this.patterns.invalid;
  }

  extract(text: string): ExtractedEntity[] {
    return this.patterns.matches(text).map((match) => ({
      entity: match.name,
      value: text.slice(match.start, match.end),
      start: match.start,
      end: match.end,
      confidence: 1,
      extractor: 'RegexEntityExtractor',
    }));
  }

  toJSON(): RegexExtractorJson {
    return { tables: this.patterns.tables, ...this.patterns.options };
  }
}

/** All `regex:` then all `lookup:` tables of the training data. */
export function patternTables(nluData: NluData): PatternTable[] {
  return [
    ...nluData.regexes.map((table) => ({
      name: table.name,
      kind: 'regex' as const,
      patterns: table.examples,
    })),
    ...nluData.lookups.map((table) => ({
      name: table.name,
      kind: 'lookup' as const,
      patterns: table.examples,
    })),
  ];
}

export function annotatedEntities(nluData: NluData): Set<string> {
  const names = new Set<string>();
  for (const intent of nluData.intents)
    for (const example of intent.examples) for (const span of example.entities) names.add(span.entity);
  return names;
}
