export type { ExtractedEntity, ExtractorName } from './types.js';
export { EXTRACTOR_PRIORITY } from './types.js';
export { EntityError } from './errors.js';
export type { EntityErrorCode } from './errors.js';
export { tokenize } from './tokens.js';
export type { Token } from './tokens.js';
export { PatternSet } from './patterns.js';
export type { PatternMatch, PatternOptions, PatternTable } from './patterns.js';
export { RegexEntityExtractor, annotatedEntities, patternTables } from './regex-extractor.js';
export type { RegexExtractorJson } from './regex-extractor.js';
export { EntitySynonymMapper } from './synonym-mapper.js';
export { PerceptronEntityExtractor } from './tagger/entity-tagger.js';
export type { TaggerJson, TaggerTrainingOptions } from './tagger/entity-tagger.js';
export type { EntityLabel } from './tagger/labels.js';
export { BUILTIN_DIMENSIONS, BuiltinEntityExtractor } from './builtins/builtin-extractor.js';
export type {
  BuiltinContext,
  BuiltinDimension,
  BuiltinJson,
  BuiltinOptions,
} from './builtins/builtin-extractor.js';
export type { DateOrder } from './builtins/dates.js';
export { findNumbers } from './builtins/numbers.js';
export type { NumberMatch } from './builtins/numbers.js';
export { findAmounts } from './builtins/amounts.js';
export type { AmountMatch } from './builtins/amounts.js';
export { parseNumberWords } from './builtins/number-words.js';
export { resolveOverlaps } from './overlaps.js';
export { extractEntities, trainEntityExtractors } from './model.js';
export type { EntityModel, ExtractOptions, TrainEntityOptions } from './model.js';
export {
  deserializeEntityModel,
  serializeEntityModel,
  ENTITY_MODEL_FORMAT,
  ENTITY_MODEL_VERSION,
} from './serialize.js';
export type { EntityModelJson } from './serialize.js';
