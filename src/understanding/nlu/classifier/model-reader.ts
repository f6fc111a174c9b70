import { isRecord, readSections } from './binary.js';
import type { Section } from './binary.js';
import { IntentClassifier } from './classifier.js';
import { ClassifierError } from './errors.js';
import type { TrainedMember } from './members.js';
import { readOptions } from './model-options.js';
import { FORMAT_VERSION } from './model-writer.js';
import { dequantiseRows } from './quantise.js';
import type { Vectoriser } from './vectoriser.js';

/** A classifier saved by `IntentClassifier.serialize()`; throws NLU_BAD_MODEL when the bytes are not one. */
export function deserializeIntentClassifier(bytes: Uint8Array): IntentClassifier {
  const { header, sections } = readSections(bytes, FORMAT_VERSION);
  const options = readOptions(header['options']);
  const labels = stringList(header['labels'], 'labels');
  const cursor = new SectionCursor(sections, options.quantise);
  const unseenIdf = count(header['unseenIdf']);
  const vectoriser = readVectoriser(header['vocabularies'], options.blocks, cursor.floats(), unseenIdf);
  const members = (Array.isArray(header['members']) ? header['members'] : []).map((entry: unknown) =>
    readMember(entry, cursor),
  );
  if (members.length === 0) throw new ClassifierError('NLU_BAD_MODEL', 'The model has no ensemble members.');
  return new IntentClassifier({ labels, vectoriser, members, options });
}

function readVectoriser(
  raw: unknown,
  blocks: Vectoriser['blocks'],
  idf: Float32Array,
  unseenIdf: number,
): Vectoriser {
  if (!Array.isArray(raw) || raw.length !== blocks.length)
    throw new ClassifierError('NLU_BAD_MODEL', 'The model vocabularies do not match its feature blocks.');
  let offset = 0;
  const vocabularies = raw.map((entry: unknown) => {
    const grams = stringList(entry, 'vocabulary');
    const vocabulary = new Map(grams.map((gram, at) => [gram, offset + at]));
    offset += grams.length;
    return vocabulary;
  });
  if (offset !== idf.length)
    throw new ClassifierError('NLU_BAD_MODEL', 'The model vocabulary and IDF disagree.');
  return { blocks, vocabularies, idf, unseenIdf, size: offset };
}

function readMember(entry: unknown, cursor: SectionCursor): TrainedMember {
  if (!isRecord(entry)) throw new ClassifierError('NLU_BAD_MODEL', 'Malformed ensemble member.');
  const temperature = count(entry['temperature']);
  const features = count(entry['features']);
  const classes = count(entry['classes']);
  if (entry['kind'] === 'linear') {
    const weights = cursor.matrix(features * classes, classes);
    return { kind: 'linear', temperature, model: { features, classes, weights, bias: cursor.floats() } };
  }
  if (entry['kind'] !== 'mlp') throw new ClassifierError('NLU_BAD_MODEL', 'Unknown ensemble member kind.');
  const hidden = count(entry['hidden']);
  const inputWeights = cursor.matrix(features * hidden, hidden);
  const hiddenBias = cursor.floats();
  const outputWeights = cursor.matrix(hidden * classes, classes);
  const model = {
    features,
    hidden,
    classes,
    inputWeights,
    hiddenBias,
    outputWeights,
    outputBias: cursor.floats(),
  };
  return { kind: 'mlp', temperature, model };
}

/** Reads the sections in the order the writer produced them. */
class SectionCursor {
  private at = 0;

  constructor(
    private readonly sections: readonly Section[],
    private readonly quantised: boolean,
  ) {}

  floats(): Float32Array {
    const section = this.next();
    if (section.type !== 'f32') throw new ClassifierError('NLU_BAD_MODEL', 'Expected a float section.');
    return section.data;
  }

  matrix(length: number, width: number): Float32Array {
    if (!this.quantised) return this.checked(this.floats(), length);
    const values = this.bytes();
    const exponents = this.bytes();
    return this.checked(dequantiseRows({ width, values, exponents }), length);
  }

  private bytes(): Int8Array {
    const section = this.next();
    if (section.type !== 'i8') throw new ClassifierError('NLU_BAD_MODEL', 'Expected an 8-bit section.');
    return section.data;
  }

  private next(): Section {
    const section = this.sections[this.at];
    if (!section)
      throw new ClassifierError('NLU_BAD_MODEL', 'The model has fewer sections than it declares.');
    this.at += 1;
    return section;
  }

  private checked(weights: Float32Array, length: number): Float32Array {
    if (weights.length !== length)
      throw new ClassifierError('NLU_BAD_MODEL', 'A weight matrix has the wrong size.');
    return weights;
  }
}

function stringList(value: unknown, what: string): string[] {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new ClassifierError('NLU_BAD_MODEL', `The model's ${what} is not a list of strings.`);
}

function count(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw new ClassifierError('NLU_BAD_MODEL', 'The model has a malformed number.');
}
