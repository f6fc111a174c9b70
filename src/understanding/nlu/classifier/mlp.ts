import { softmaxInPlace } from './linear.js';
import type { Random } from './random.js';
import { permutation } from './random.js';
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

/**
 * Plain SGD on the softmax loss with dropout on the hidden layer. Only the units kept by dropout are
 * computed, and only the units with a gradient are updated, which makes a step about 3x cheaper.
 */
export function trainMlp(
  data: SparseMatrix,
  labels: Int32Array,
  features: number,
  classes: number,
  training: MlpTraining,
  random: Random,
): MlpModel {
  const model = initialModel(features, classes, training, random);
  let longest = 0;
  for (let row = 0; row < data.rows; row += 1)
    longest = Math.max(longest, (data.offsets[row + 1] as number) - (data.offsets[row] as number));
  const step = new TrainingStep(model, training.dropout, longest);
  const total = training.epochs * data.rows;
  let done = 0;
  for (let epoch = 0; epoch < training.epochs; epoch += 1) {
    for (const row of permutation(data.rows, random)) {
      const start = data.offsets[row] as number;
      const end = data.offsets[row + 1] as number;
      const indices = data.indices.subarray(start, end);
      const values = data.values.subarray(start, end);
      step.run(indices, values, labels[row] as number, training.learningRate * (1 - done / total), random);
      done += 1;
    }
  }
  return model;
}

/** Uniform initial weights with the given standard deviations (input layer) and Glorot (output layer). */
function initialModel(features: number, classes: number, training: MlpTraining, random: Random): MlpModel {
  const { hidden, initScale } = training;
  return {
    features,
    hidden,
    classes,
    inputWeights: uniformWeights(features * hidden, initScale, random),
    hiddenBias: new Float32Array(hidden),
    outputWeights: uniformWeights(hidden * classes, Math.sqrt(2 / (hidden + classes)), random),
    outputBias: new Float32Array(classes),
  };
}

function uniformWeights(length: number, deviation: number, random: Random): Float32Array {
  const weights = new Float32Array(length);
  const range = deviation * Math.sqrt(3);
  for (let at = 0; at < length; at += 1) weights[at] = (2 * random.next() - 1) * range;
  return weights;
}

/** One SGD step over the units that dropout keeps; buffers are allocated once per training run. */
class TrainingStep {
  private readonly units: Int32Array;
  private readonly activations: Float64Array;
  private readonly gradients: Float64Array;
  private readonly scores: Float64Array;
  /** Row offsets into W1 of the current input's features. */
  private readonly bases: Int32Array;

  constructor(
    private readonly model: MlpModel,
    private readonly dropout: number,
    longest: number,
  ) {
    this.bases = new Int32Array(longest);
    this.units = new Int32Array(model.hidden);
    this.activations = new Float64Array(model.hidden);
    this.gradients = new Float64Array(model.hidden);
    this.scores = new Float64Array(model.classes);
  }

  run(indices: Int32Array, values: Float32Array, label: number, rate: number, random: Random): void {
    const count = this.forward(indices, values, random);
    this.backward(indices, values, label, rate, count);
  }

  /** Activations of the kept, positive units (compacted into `units`); returns how many. */
  private forward(indices: Int32Array, values: Float32Array, random: Random): number {
    const { hidden, classes, inputWeights, hiddenBias, outputWeights } = this.model;
    const { units, activations, scores } = this;
    const keep = 1 - this.dropout;
    let kept = 0;
    for (let j = 0; j < hidden; j += 1) {
      if (random.next() >= keep) continue;
      units[kept] = j;
      activations[kept] = hiddenBias[j] as number;
      kept += 1;
    }
    const { bases } = this;
    for (let nz = 0; nz < indices.length; nz += 1) bases[nz] = (indices[nz] as number) * hidden;
    // Unit by unit, so that the sum stays in a register: about twice as fast as feature by feature.
    for (let k = 0; k < kept; k += 1) {
      const unit = units[k] as number;
      let sum = activations[k] as number;
      for (let nz = 0; nz < indices.length; nz += 1)
        sum += (values[nz] as number) * (inputWeights[(bases[nz] as number) + unit] as number);
      activations[k] = sum;
    }
    let count = 0;
    for (let k = 0; k < kept; k += 1) {
      if ((activations[k] as number) <= 0) continue;
      units[count] = units[k] as number;
      activations[count] = (activations[k] as number) / keep;
      count += 1;
    }
    scores.set(this.model.outputBias);
    for (let k = 0; k < count; k += 1) {
      const activation = activations[k] as number;
      const base = (units[k] as number) * classes;
      for (let c = 0; c < classes; c += 1)
        scores[c] = (scores[c] as number) + activation * (outputWeights[base + c] as number);
    }
    return count;
  }

  private backward(indices: Int32Array, values: Float32Array, label: number, rate: number, count: number) {
    const { classes, inputWeights, hiddenBias, outputWeights, outputBias } = this.model;
    const { units, activations, gradients, scores } = this;
    const keep = 1 - this.dropout;
    softmaxInPlace(scores);
    scores[label] = (scores[label] as number) - 1;
    for (let k = 0; k < count; k += 1) {
      const base = (units[k] as number) * classes;
      const step = rate * (activations[k] as number);
      let sum = 0;
      for (let c = 0; c < classes; c += 1) {
        const g = scores[c] as number;
        sum += g * (outputWeights[base + c] as number);
        outputWeights[base + c] = (outputWeights[base + c] as number) - step * g;
      }
      gradients[k] = sum / keep;
      const unit = units[k] as number;
      hiddenBias[unit] = (hiddenBias[unit] as number) - rate * (gradients[k] as number);
    }
    for (let c = 0; c < classes; c += 1)
      outputBias[c] = (outputBias[c] as number) - rate * (scores[c] as number);
    const { bases } = this;
    for (let k = 0; k < count; k += 1) {
      const unit = units[k] as number;
      const step = rate * (gradients[k] as number);
      for (let nz = 0; nz < indices.length; nz += 1) {
        const at = (bases[nz] as number) + unit;
        inputWeights[at] = (inputWeights[at] as number) - step * (values[nz] as number);
      }
    }
  }
}

/** Inference: the output scores for one sparse input, into `buffers.scores`. */
export function forward(
  model: MlpModel,
  indices: Int32Array,
  values: Float32Array,
  buffers: { readonly hidden: Float64Array; readonly scores: Float64Array },
): void {
  const { hidden: size, classes, inputWeights, outputWeights } = model;
  const { hidden, scores } = buffers;
  for (let j = 0; j < size; j += 1) {
    let sum = model.hiddenBias[j] as number;
    for (let nz = 0; nz < indices.length; nz += 1)
      sum += (values[nz] as number) * (inputWeights[(indices[nz] as number) * size + j] as number);
    hidden[j] = sum;
  }
  scores.set(model.outputBias);
  for (let j = 0; j < size; j += 1) {
    const activation = hidden[j] as number;
    if (activation <= 0) continue;
    const base = j * classes;
    for (let c = 0; c < classes; c += 1)
      scores[c] = (scores[c] as number) + activation * (outputWeights[base + c] as number);
  }
}
