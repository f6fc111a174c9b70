import { BUILTIN_DIMENSIONS, BuiltinEntityExtractor } from './builtins/builtin-extractor.js';
import type { BuiltinJson } from './builtins/builtin-extractor.js';
import { JsonReader } from './json-reader.js';
import type { EntityModel } from './model.js';
import type { PatternTable } from './patterns.js';
import { RegexEntityExtractor } from './regex-extractor.js';
import type { RegexExtractorJson } from './regex-extractor.js';
import { EntitySynonymMapper } from './synonym-mapper.js';
import { PerceptronEntityExtractor } from './tagger/entity-tagger.js';
import type { TaggerJson } from './tagger/entity-tagger.js';
import type { EntityLabel } from './tagger/labels.js';
import { tagCount } from './tagger/labels.js';

export const ENTITY_MODEL_FORMAT = 'parley.entities';
export const ENTITY_MODEL_VERSION = 1;

/** The JSON form of an EntityModel (write it with JSON.stringify). */
export interface EntityModelJson {
  readonly format: typeof ENTITY_MODEL_FORMAT;
  readonly version: typeof ENTITY_MODEL_VERSION;
  readonly regex: RegexExtractorJson | null;
  readonly tagger: TaggerJson | null;
  readonly builtins: BuiltinJson | null;
  readonly synonyms: Readonly<Record<string, string>>;
}

export function serializeEntityModel(model: EntityModel): EntityModelJson {
  return {
    format: ENTITY_MODEL_FORMAT,
    version: ENTITY_MODEL_VERSION,
    regex: model.regex?.toJSON() ?? null,
    tagger: model.tagger?.toJSON() ?? null,
    builtins: model.builtins?.toJSON() ?? null,
    synonyms: model.synonyms.synonyms,
  };
}

/** Rebuilds a model from `serializeEntityModel` output; throws EntityError NLU_BAD_MODEL naming the bad field. */
export function deserializeEntityModel(json: unknown): EntityModel {
  const root = new JsonReader(json, 'model');
  root.field('format').oneOf([ENTITY_MODEL_FORMAT]);
  if (root.field('version').number() !== ENTITY_MODEL_VERSION)
    root.field('version').fail(`${ENTITY_MODEL_VERSION}`);
  const regex = optional(root.field('regex'), readRegex);
  const tagger = optional(root.field('tagger'), readTagger);
  const builtins = optional(root.field('builtins'), readBuiltins);
  return {
    ...(regex ? { regex: RegexEntityExtractor.fromJSON(regex) } : {}),
    ...(tagger ? { tagger: PerceptronEntityExtractor.fromJSON(tagger) } : {}),
    ...(builtins ? { builtins: BuiltinEntityExtractor.fromJSON(builtins) } : {}),
    synonyms: new EntitySynonymMapper({ synonyms: root.field('synonyms').stringRecord() }),
  };
}

function optional<T>(reader: JsonReader, read: (reader: JsonReader) => T): T | undefined {
  return reader.isNull() ? undefined : read(reader);
}

function readTables(reader: JsonReader): PatternTable[] {
  return reader.array((table) => ({
    name: table.field('name').string(),
    kind: table.field('kind').oneOf(['regex', 'lookup'] as const),
    patterns: table.field('patterns').array((pattern) => pattern.string()),
  }));
}

function readRegex(reader: JsonReader): RegexExtractorJson {
  return {
    tables: readTables(reader.field('tables')),
    caseSensitive: reader.field('caseSensitive').boolean(),
    useWordBoundaries: reader.field('useWordBoundaries').boolean(),
  };
}

function readTagger(reader: JsonReader): TaggerJson {
  const labels = reader.field('labels').array(readLabel);
  const model = reader.field('model');
  const numTags = model.field('numTags').number();
  const features = model.field('features').array((feature) => feature.string());
  const weights = model.field('weights').array((weight) => weight.number());
  const transitions = model.field('transitions').array((weight) => weight.number());
  const consistent =
    numTags === tagCount(labels.length) &&
    weights.length === features.length * numTags &&
    transitions.length === (numTags + 1) * numTags;
  if (!consistent) model.fail(`a tagger of ${tagCount(labels.length)} tags with weights of matching size`);
  const options = reader.field('patternOptions');
  return {
    labels,
    patterns: readTables(reader.field('patterns')),
    patternOptions: {
      caseSensitive: options.field('caseSensitive').boolean(),
      useWordBoundaries: options.field('useWordBoundaries').boolean(),
    },
    model: { numTags, features, weights, transitions },
  };
}

function readLabel(reader: JsonReader): EntityLabel {
  const role = reader.field('role').optionalString();
  const group = reader.field('group').optionalString();
  return {
    entity: reader.field('entity').string(),
    ...(role !== undefined ? { role } : {}),
    ...(group !== undefined ? { group } : {}),
  };
}

function readBuiltins(reader: JsonReader): BuiltinJson {
  return {
    dimensions: reader.field('dimensions').array((dimension) => dimension.oneOf(BUILTIN_DIMENSIONS)),
    dateOrder: reader.field('dateOrder').oneOf(['DMY', 'MDY'] as const),
  };
}
