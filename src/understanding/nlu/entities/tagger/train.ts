import { seededRandom, shuffled } from '../random.js';
import { LinearChainModel } from './perceptron.js';

export interface TrainingSequence {
  readonly features: readonly (readonly string[])[];
  readonly tags: readonly number[];
}

export interface PerceptronOptions {
  readonly numTags: number;
  readonly epochs: number;
  readonly seed: number;
  /**
   * probability that a token's droppable features (its own word form) are hidden during one training
   * visit, so the model also learns from context and generalises to unseen words
   */
  readonly dropout?: number;
  readonly droppable?: (feature: string) => boolean;
}

interface Example {
  readonly ids: readonly (readonly number[])[];
  readonly tags: readonly number[];
}

/**
 * Trains a structured perceptron (Collins 2002) with weight averaging: each epoch visits the sequences in
 * a seeded shuffled order and, where Viterbi disagrees with the gold tags, moves weight from the predicted
 * to the gold features and transitions. Averaging uses the running-sum trick (avg = w - u / c).
 */
export function trainPerceptron(
  sequences: readonly TrainingSequence[],
  options: PerceptronOptions,
): LinearChainModel {
  const featureIndex = vocabulary(sequences);
  const { numTags } = options;
  const model = new LinearChainModel({
    numTags,
    featureIndex,
    weights: new Float64Array(featureIndex.size * numTags),
    transitions: new Float64Array((numTags + 1) * numTags),
  });
  const examples: Example[] = sequences.map((sequence) => ({
    ids: sequence.features.map((features) => model.featureIds(features)),
    tags: sequence.tags,
  }));
  const sums = {
    weights: new Float64Array(model.weights.length),
    transitions: new Float64Array(model.transitions.length),
  };
  const random = seededRandom(options.seed);
  const hide = dropper(featureIndex, options, random);
  let step = 1;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (const example of shuffled(examples, random)) {
      const visit = { ids: example.ids.map(hide), tags: example.tags };
      update(model, sums, visit, model.bestTags(visit.ids), step);
      step++;
    }
  }
  model.weights.forEach(
    (weight, index) => (model.weights[index] = weight - (sums.weights[index] ?? 0) / step),
  );
  model.transitions.forEach(
    (weight, index) => (model.transitions[index] = weight - (sums.transitions[index] ?? 0) / step),
  );
  return model;
}

function dropper(
  featureIndex: ReadonlyMap<string, number>,
  options: PerceptronOptions,
  random: () => number,
): (ids: readonly number[]) => readonly number[] {
  const { dropout = 0, droppable } = options;
  if (dropout <= 0 || !droppable) return (ids) => ids;
  const dropped = new Set([...featureIndex].filter(([feature]) => droppable(feature)).map(([, id]) => id));
  return (ids) => (random() < dropout ? ids.filter((id) => !dropped.has(id)) : ids);
}

function vocabulary(sequences: readonly TrainingSequence[]): Map<string, number> {
  const index = new Map<string, number>();
  for (const sequence of sequences)
    for (const features of sequence.features)
      for (const feature of features) if (!index.has(feature)) index.set(feature, index.size);
  return index;
}

function update(
  model: LinearChainModel,
  sums: { weights: Float64Array; transitions: Float64Array },
  example: Example,
  predicted: readonly number[],
  step: number,
): void {
  const T = model.numTags;
  const add = (weights: Float64Array, totals: Float64Array, at: number, delta: number) => {
    weights[at] = (weights[at] ?? 0) + delta;
    totals[at] = (totals[at] ?? 0) + step * delta;
  };
  example.tags.forEach((gold, index) => {
    const guess = predicted[index] ?? 0;
    const goldBefore = index === 0 ? T : (example.tags[index - 1] ?? 0);
    const guessBefore = index === 0 ? T : (predicted[index - 1] ?? 0);
    if (gold === guess && goldBefore === guessBefore) return;
    add(model.transitions, sums.transitions, goldBefore * T + gold, 1);
    add(model.transitions, sums.transitions, guessBefore * T + guess, -1);
    if (gold === guess) return;
    for (const id of example.ids[index] ?? []) {
      add(model.weights, sums.weights, id * T + gold, 1);
      add(model.weights, sums.weights, id * T + guess, -1);
    }
  });
}
