import type { NluData } from '../../../core/domain/nlu-data.js';
import { BuiltinEntityExtractor } from './builtins/builtin-extractor.js';
import type { BuiltinContext, BuiltinOptions } from './builtins/builtin-extractor.js';
import { resolveOverlaps } from './overlaps.js';
import type { PatternOptions } from './patterns.js';
import { RegexEntityExtractor, patternTables } from './regex-extractor.js';
import { EntitySynonymMapper } from './synonym-mapper.js';
import { PerceptronEntityExtractor } from './tagger/entity-tagger.js';
import type { ExtractedEntity, ExtractorName } from './types.js';

/** The trained entity extractors of an assistant; absent extractors had nothing to learn or were disabled. */
export interface EntityModel {
  readonly regex?: RegexEntityExtractor;
  readonly tagger?: PerceptronEntityExtractor;
  readonly builtins?: BuiltinEntityExtractor;
  readonly synonyms: EntitySynonymMapper;
}

export interface TrainEntityOptions extends PatternOptions {
  /** tagger training seed; default 1 (same data + seed = same model) */
  readonly seed?: number;
  /** tagger training epochs; default 20 */
  readonly epochs?: number;
  /** built-in extraction settings, or false to switch built-ins off; default all dimensions, DMY */
  readonly builtins?: BuiltinOptions | false;
}

export interface ExtractOptions extends BuiltinContext {
  /** run only these extractors; default all that the model has */
  readonly extractors?: readonly ExtractorName[];
}

export function trainEntityExtractors(nluData: NluData, options: TrainEntityOptions = {}): EntityModel {
  const patternOptions: PatternOptions = {
    ...(options.caseSensitive !== undefined ? { caseSensitive: options.caseSensitive } : {}),
    ...(options.useWordBoundaries !== undefined ? { useWordBoundaries: options.useWordBoundaries } : {}),
  };
  const regex = RegexEntityExtractor.fromNluData(nluData, patternOptions);
  const examples = nluData.intents.flatMap((intent) => intent.examples);
  const tagger = PerceptronEntityExtractor.train(examples, {
    ...patternOptions,
    patterns: patternTables(nluData),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.epochs !== undefined ? { epochs: options.epochs } : {}),
  });
  const builtins =
    options.builtins === false ? undefined : new BuiltinEntityExtractor(options.builtins ?? {});
  return {
    ...(regex ? { regex } : {}),
    ...(tagger ? { tagger } : {}),
    ...(builtins ? { builtins } : {}),
    synonyms: EntitySynonymMapper.fromNluData(nluData),
  };
}

/**
 * Runs the model's extractors over `text`, keeps the longest of overlapping spans (ties: regex/lookup,
 * then trained, then built-in) and finally maps synonyms.
 */
export function extractEntities(
  text: string,
  model: EntityModel,
  options: ExtractOptions = {},
): ExtractedEntity[] {
  const enabled = (name: ExtractorName) =>
    options.extractors === undefined || options.extractors.includes(name);
  const candidates = [
    ...(model.regex && enabled('RegexEntityExtractor') ? model.regex.extract(text) : []),
    ...(model.tagger && enabled('PerceptronEntityExtractor') ? model.tagger.extract(text) : []),
    ...(model.builtins && enabled('BuiltinEntityExtractor') ? model.builtins.extract(text, options) : []),
  ];
  return model.synonyms.apply(resolveOverlaps(candidates));
}
