/** The components that can produce an entity, named as they appear in `entities[].extractor`. */
export type ExtractorName = 'RegexEntityExtractor' | 'PerceptronEntityExtractor' | 'BuiltinEntityExtractor';

/** One entity found in a user message (Rasa's entity dict, with offsets into the original text). */
export interface ExtractedEntity {
  readonly entity: string;
  /** the normalised value: the matched text, its synonym, or a built-in's number / ISO date / e-mail */
  readonly value: unknown;
  readonly start: number;
  readonly end: number;
  readonly confidence: number;
  readonly extractor: ExtractorName;
  readonly role?: string;
  readonly group?: string;
  /** components that changed the entity after extraction, e.g. `EntitySynonymMapper` */
  readonly processors?: readonly string[];
  /** built-ins only: the structured reading (Duckling's `additional_info`), e.g. `{value, unit}` */
  readonly additionalInfo?: Readonly<Record<string, unknown>>;
}

/** Which extractor wins when two spans of the same length overlap: lower comes first. */
export const EXTRACTOR_PRIORITY: Readonly<Record<ExtractorName, number>> = {
  RegexEntityExtractor: 0,
  PerceptronEntityExtractor: 1,
  BuiltinEntityExtractor: 2,
};
