import { softmaxInPlace } from './linear.js';
import type { Random } from './random.js';
import { gaussian, permutation } from './random.js';
import type { SparseMatrix } from './sparse.js';

/** One hidden ReLU layer over the sparse TF-IDF input; W1 is feature-major, W2 hidden-major. */
export interface MlpModel {
  readonly features: number;
  readonly hidden: number;
  readonly classes: number;
  readonly inputWeights: Float32Array;
  readonly hiddenBias: Float32Array;
  readonly outputWeights: Float32Array;
  readonly outputBias: Float32Array;
}

export interface MlpTraining {
  readonly hidden: number;
  readonly epochs: number;
  /** Decays linearly to zero over the run. */
  readonly learningRate: number;
  readonly dropout: number;
  readonly initScale: number;
}

export function trainMlp(
  data: SparseMatrix,
  labels: Int32Array,
  features: number,
  classes: number,
  training: MlpTraining,
  random: Random,
): MlpModel {
  const model = initialModel(features, classes, training, random);
  const buffers = new Buffers(training.hidden, classes);
  const total = training.epochs * data.rows;
  let step = 0;
  for (let epoch = 0; epoch < training.epochs; epoch += 1) {
    for (const row of permutation(data.rows, random)) {
      const rate = training.learningRate * (1 - step / total);
      const start = data.offsets[row] as number;
      const end = data.offsets[row + 1] as number;
      const input = { indices: data.indices.subarray(start, end), values: data.values.subarray(start, end) };
      forward(model, input.indices, input.values, buffers, training.dropout, random);
      backward(model, input.indices, input.values, labels[row] as number, buffers, rate);
      step += 1;
    }
  }
  return model;
}

function initialModel(features: number, classes: number, training: MlpTraining, random: Random): MlpModel {
  const { hidden, initScale } = training;
  const inputWeights = Float32Array.from({ length: features * hidden }, () => gaussian(random) * initScale);
  const outputScale = Math.sqrt(2 / (hidden + classes));
  const outputWeights = Float32Array.from({ length: hidden * classes }, () => gaussian(random) * outputScale);
  return {
    features,
    hidden,
    classes,
    inputWeights,
    hiddenBias: new Float32Array(hidden),
    outputWeights,
    outputBias: new Float32Array(classes),
  };
}

class Buffers {
  readonly hidden: Float64Array;
  readonly mask: Float64Array;
  readonly scores: Float64Array;
  readonly hiddenGradient: Float64Array;
  constructor(hidden: number, classes: number) {
    this.hidden = new Float64Array(hidden);
    this.mask = new Float64Array(hidden);
    this.scores = new Float64Array(classes);
    this.hiddenGradient = new Float64Array(hidden);
  }
}

/** Hidden activations (with inverted dropout when `dropout` > 0) and the output scores, into `buffers`. */
export function forward(
  model: MlpModel,
  indices: Int32Array,
  values: Float32Array,
  buffers: { hidden: Float64Array; mask: Float64Array; scores: Float64Array },
  dropout: number,
  random?: Random,
): void {
  const { hidden: size, classes, inputWeights, outputWeights } = model;
  const { hidden, mask, scores } = buffers;
  hidden.set(model.hiddenBias);
  for (let nz = 0; nz < indices.length; nz += 1) {
    const value = values[nz] as number;
    const base = (indices[nz] as number) * size;
    for (let j = 0; j < size; j += 1)
      hidden[j] = (hidden[j] as number) + value * (inputWeights[base + j] as number);
  }
  const keep = 1 - dropout;
  for (let j = 0; j < size; j += 1) {
    const kept = random && dropout > 0 ? (random.next() < keep ? 1 / keep : 0) : 1;
    mask[j] = (hidden[j] as number) > 0 ? kept : 0;
    hidden[j] = (hidden[j] as number) * (mask[j] as number);
  }
  scores.set(model.outputBias);
  for (let j = 0; j < size; j += 1) {
    const activation = hidden[j] as number;
    if (activation === 0) continue;
    const base = j * classes;
    for (let c = 0; c < classes; c += 1)
      scores[c] = (scores[c] as number) + activation * (outputWeights[base + c] as number);
  }
}

function backward(
  model: MlpModel,
  indices: Int32Array,
  values: Float32Array,
  label: number,
  buffers: Buffers,
  rate: number,
): void {
  const { hidden: size, classes, inputWeights, outputWeights, outputBias, hiddenBias } = model;
  const { hidden, mask, scores, hiddenGradient } = buffers;
  softmaxInPlace(scores);
  scores[label] = (scores[label] as number) - 1;
  hiddenGradient.fill(0);
  for (let j = 0; j < size; j += 1) {
    if (mask[j] === 0) continue;
    const base = j * classes;
    const activation = hidden[j] as number;
    let sum = 0;
    for (let c = 0; c < classes; c += 1) {
      const g = scores[c] as number;
      sum += g * (outputWeights[base + c] as number);
      outputWeights[base + c] = (outputWeights[base + c] as number) - rate * g * activation;
    }
    hiddenGradient[j] = sum * (mask[j] as number);
  }
  for (let c = 0; c < classes; c += 1)
    outputBias[c] = (outputBias[c] as number) - rate * (scores[c] as number);
  for (let j = 0; j < size; j += 1)
    hiddenBias[j] = (hiddenBias[j] as number) - rate * (hiddenGradient[j] as number);
  for (let nz = 0; nz < indices.length; nz += 1) {
    const value = rate * (values[nz] as number);
    const base = (indices[nz] as number) * size;
    for (let j = 0; j < size; j += 1) {
      const g = hiddenGradient[j] as number;
      if (g !== 0) inputWeights[base + j] = (inputWeights[base + j] as number) - value * g;
    }
  }
}
