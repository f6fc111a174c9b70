import { isRecord } from './binary.js';
import { ClassifierError } from './errors.js';
import type { FeatureBlock } from './ngrams.js';
import type { ClassifierOptions, FallbackOptions, MemberOptions } from './options.js';

/** The options stored in a saved model, checked field by field. */
export function readOptions(raw: unknown): ClassifierOptions {
  const record = required(raw, 'options');
  return {
    seed: number(record, 'seed'),
    blocks: list(record['blocks'], 'blocks').map(readBlock),
    members: list(record['members'], 'members').map(readMemberOptions),
    countUnseen: boolean(record, 'countUnseen'),
    intentNameExamples: number(record, 'intentNameExamples'),
    calibrationShare: number(record, 'calibrationShare'),
    refit: boolean(record, 'refit'),
    fallback:
      record['fallback'] === undefined || record['fallback'] === null
        ? undefined
        : readFallback(record['fallback']),
    outOfScopeIntents: list(record['outOfScopeIntents'], 'outOfScopeIntents').map((item) => {
      if (typeof item !== 'string') throw bad('outOfScopeIntents');
      return item;
    }),
    quantise: boolean(record, 'quantise'),
  };
}

function readBlock(raw: unknown): FeatureBlock {
  const record = required(raw, 'block');
  const common = {
    minNgram: number(record, 'minNgram'),
    maxNgram: number(record, 'maxNgram'),
    weight: number(record, 'weight'),
    minDf: number(record, 'minDf'),
    maxFeatures: number(record, 'maxFeatures'),
  };
  if (record['kind'] === 'word')
    return {
      kind: 'word',
      ...common,
      maskNumbers: boolean(record, 'maskNumbers'),
      stem: boolean(record, 'stem'),
    };
  if (record['kind'] === 'char' && (record['analyzer'] === 'char' || record['analyzer'] === 'char_wb'))
    return { kind: 'char', analyzer: record['analyzer'], ...common };
  throw bad('block kind');
}

function readMemberOptions(raw: unknown): MemberOptions {
  const record = required(raw, 'member');
  const common = {
    epochs: number(record, 'epochs'),
    minSteps: number(record, 'minSteps'),
    maxEpochs: number(record, 'maxEpochs'),
    maxSteps: number(record, 'maxSteps'),
    learningRate: number(record, 'learningRate'),
  };
  if (record['kind'] === 'linear' && (record['loss'] === 'logistic' || record['loss'] === 'hinge'))
    return {
      kind: 'linear',
      loss: record['loss'],
      ...common,
      decay: number(record, 'decay'),
      tolerance: number(record, 'tolerance'),
    };
  if (record['kind'] === 'mlp')
    return {
      kind: 'mlp',
      ...common,
      hidden: number(record, 'hidden'),
      dropout: number(record, 'dropout'),
      initScale: number(record, 'initScale'),
    };
  throw bad('member kind');
}

function readFallback(raw: unknown): FallbackOptions {
  const record = required(raw, 'fallback');
  const intent = record['intent'];
  if (typeof intent !== 'string') throw bad('fallback intent');
  return {
    threshold: number(record, 'threshold'),
    ambiguityThreshold: number(record, 'ambiguityThreshold'),
    intent,
  };
}

function required(raw: unknown, what: string): Record<string, unknown> {
  if (!isRecord(raw)) throw bad(what);
  return raw;
}

function list(raw: unknown, what: string): unknown[] {
  if (!Array.isArray(raw)) throw bad(what);
  return raw;
}

function number(record: Record<string, unknown>, key: string): number {
  const value = record[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw bad(key);
  return value;
}

function boolean(record: Record<string, unknown>, key: string): boolean {
  const value = record[key];
  if (typeof value !== 'boolean') throw bad(key);
  return value;
}

function bad(what: string): ClassifierError {
  return new ClassifierError('NLU_BAD_MODEL', `The model's options are malformed (${what}).`);
}
