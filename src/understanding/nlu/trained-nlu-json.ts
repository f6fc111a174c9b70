import { AppError } from '../../core/errors.js';
import { ClassifierError } from './classifier/errors.js';
import { deserializeIntentClassifier } from './classifier/model-reader.js';
import { EntityError } from './entities/errors.js';
import { deserializeEntityModel, serializeEntityModel } from './entities/serialize.js';
import type { EntityModelJson } from './entities/serialize.js';
import type { TrainedNlu } from './pipeline.js';

export const TRAINED_NLU_FORMAT = 'parley.nlu';
/** 2: the entity tagger reads a capital that only starts a sentence as lower case (its features changed) */
export const TRAINED_NLU_VERSION = 2;

/**
 * The JSON form of a trained pipeline (write it with JSON.stringify). The classifier is its own binary
 * format (typed arrays of 8-bit weights), carried here as base64; gzip takes back most of base64's third.
 */
export interface TrainedNluJson {
  readonly format: typeof TRAINED_NLU_FORMAT;
  readonly version: typeof TRAINED_NLU_VERSION;
  readonly classifier: string;
  readonly entities: EntityModelJson;
}

export function serializeTrainedNlu(trained: TrainedNlu): TrainedNluJson {
  return {
    format: TRAINED_NLU_FORMAT,
    version: TRAINED_NLU_VERSION,
    classifier: Buffer.from(trained.classifier.serialize()).toString('base64'),
    entities: serializeEntityModel(trained.entities),
  };
}

/**
 * Rebuilds a pipeline from `serializeTrainedNlu` output. Anything else (another format, another
 * version, damaged weights) throws AppError MODEL_INVALID saying what is wrong and to train again.
 */
export function deserializeTrainedNlu(json: unknown, source = 'the model'): TrainedNlu {
  const root = isObject(json) ? json : invalid(source, 'its NLU part is not a JSON object');
  if (root['format'] !== TRAINED_NLU_FORMAT)
    invalid(source, `its NLU part is not a Parley NLU model (format ${JSON.stringify(root['format'])})`);
  if (root['version'] !== TRAINED_NLU_VERSION)
    invalid(
      source,
      `its NLU part has format version ${JSON.stringify(root['version'])}; ` +
        `this Parley reads version ${TRAINED_NLU_VERSION}`,
    );
  const classifier = root['classifier'];
  if (typeof classifier !== 'string' || !BASE64.test(classifier))
    invalid(source, 'its intent classifier is not base64 text');
  try {
    return {
      classifier: deserializeIntentClassifier(Buffer.from(classifier, 'base64')),
      entities: deserializeEntityModel(root['entities']),
    };
  } catch (error) {
    if (!(error instanceof ClassifierError || error instanceof EntityError)) throw error;
    return invalid(source, `its NLU part is damaged: ${error.message}`, error);
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function invalid(source: string, reason: string, cause?: unknown): never {
  throw new AppError({
    code: 'MODEL_INVALID',
    message: `${source} cannot be used: ${reason}. Train a new model with \`parley train --force\`.`,
    ...(cause !== undefined ? { cause } : {}),
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
