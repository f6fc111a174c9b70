import type { Random } from './random.js';
import { permutation } from './random.js';
import type { SparseMatrix } from './sparse.js';
import { addProduct } from './sparse.js';

/** A linear scorer: `weights` is feature-major (row f holds the weights of feature f for every class). */
export interface LinearModel {
  readonly features: number;
  readonly classes: number;
  readonly weights: Float32Array;
  readonly bias: Float32Array;
}

/** Multinomial logistic regression (softmax loss) or Crammer–Singer multiclass hinge loss. */
export type LinearLoss = 'logistic' | 'hinge';

export interface LinearTraining {
  readonly loss: LinearLoss;
  readonly epochs: number;
  /** Learning rate at epoch e: rate / (1 + decay * e). */
  readonly learningRate: number;
  readonly decay: number;
  /** Softmax gradients below this are skipped (saves most of the work once the model is confident). */
  readonly tolerance: number;
}

/** Per-example SGD with weight averaging (the average of every intermediate model), seeded order. */
export function trainLinear(
  data: SparseMatrix,
  labels: Int32Array,
  features: number,
  classes: number,
  training: LinearTraining,
  random: Random,
): LinearModel {
  const state = new AveragedState(features, classes);
  const scores = new Float64Array(classes);
  const gradient = new Float64Array(classes);
  for (let epoch = 0; epoch < training.epochs; epoch += 1) {
    const rate = training.learningRate / (1 + training.decay * epoch);
    for (const row of permutation(data.rows, random)) {
      const start = data.offsets[row] as number;
      const end = data.offsets[row + 1] as number;
      const indices = data.indices.subarray(start, end);
      const values = data.values.subarray(start, end);
      scores.set(state.bias);
      addProduct(state.weights, classes, indices, values, scores);
      const label = labels[row] as number;
      if (lossGradient(training, scores, label, gradient)) state.update(indices, values, gradient, rate);
      state.tick();
    }
  }
  return state.average();
}

/** Writes d(loss)/d(score) into `gradient`; false when there is nothing to update. */
function lossGradient(training: LinearTraining, scores: Float64Array, label: number, gradient: Float64Array) {
  gradient.fill(0);
  if (training.loss === 'hinge') {
    let rival = -1;
    let best = -Infinity;
    for (let c = 0; c < scores.length; c += 1) {
      if (c !== label && (scores[c] as number) > best) [best, rival] = [scores[c] as number, c];
    }
    if (rival < 0 || best + 1 <= (scores[label] as number)) return false;
    gradient[label] = -1;
    gradient[rival] = 1;
    return true;
  }
  softmaxInPlace(scores);
  let any = false;
  for (let c = 0; c < scores.length; c += 1) {
    const value = (scores[c] as number) - (c === label ? 1 : 0);
    if (Math.abs(value) >= training.tolerance) {
      gradient[c] = value;
      any = true;
    }
  }
  return any;
}

/** softmax(scores / temperature) in place; an infinite temperature gives the uniform distribution. */
export function softmaxInPlace(scores: Float64Array, temperature = 1): void {
  if (!Number.isFinite(temperature)) return void scores.fill(1 / scores.length);
  let max = -Infinity;
  for (const score of scores) max = Math.max(max, score);
  let sum = 0;
  for (let c = 0; c < scores.length; c += 1) {
    const value = Math.exp(((scores[c] as number) - max) / temperature);
    scores[c] = value;
    sum += value;
  }
  for (let c = 0; c < scores.length; c += 1) scores[c] = (scores[c] as number) / sum;
}

/** Averaged SGD in O(nonzeros) per step: avg = w - u / t, where u accumulates t * update (Daumé). */
class AveragedState {
  readonly weights: Float32Array;
  readonly bias: Float32Array;
  private readonly weightSums: Float32Array;
  private readonly biasSums: Float64Array;
  private readonly active: Int32Array;
  private readonly deltas: Float64Array;
  private step = 1;

  constructor(
    private readonly features: number,
    private readonly classes: number,
  ) {
    this.weights = new Float32Array(features * classes);
    this.weightSums = new Float32Array(features * classes);
    this.bias = new Float32Array(classes);
    this.biasSums = new Float64Array(classes);
    this.active = new Int32Array(classes);
    this.deltas = new Float64Array(classes);
  }

  update(indices: Int32Array, values: Float32Array, gradient: Float64Array, rate: number): void {
    const { classes, step, active, deltas } = this;
    let count = 0;
    for (let c = 0; c < classes; c += 1) {
      const delta = -rate * (gradient[c] as number);
      if (delta === 0) continue;
      active[count] = c;
      deltas[count] = delta;
      count += 1;
      this.bias[c] = (this.bias[c] as number) + delta;
      this.biasSums[c] = (this.biasSums[c] as number) + step * delta;
    }
    for (let nz = 0; nz < indices.length; nz += 1) {
      const base = (indices[nz] as number) * classes;
      const value = values[nz] as number;
      for (let k = 0; k < count; k += 1) {
        const at = base + (active[k] as number);
        const change = (deltas[k] as number) * value;
        this.weights[at] = (this.weights[at] as number) + change;
        this.weightSums[at] = (this.weightSums[at] as number) + step * change;
      }
    }
  }

  tick(): void {
    this.step += 1;
  }

  average(): LinearModel {
    const weights = new Float32Array(this.weights.length);
    for (let at = 0; at < weights.length; at += 1)
      weights[at] = (this.weights[at] as number) - (this.weightSums[at] as number) / this.step;
    const bias = Float32Array.from(this.bias, (value, c) => value - (this.biasSums[c] as number) / this.step);
    return { features: this.features, classes: this.classes, weights, bias };
  }
}
