import { fitTemperature } from './calibration.js';
import { IntentClassifier } from './classifier.js';
import type { LabelledExample } from './dataset.js';
import { ClassifierError } from './errors.js';
import { hiddenSize, memberLogits, ScoringBuffers, trainMember } from './members.js';
import type { TrainedMember, TrainingSet } from './members.js';
import { DEFAULT_OPTIONS } from './options.js';
import type { ClassifierOptions, MemberOptions } from './options.js';
import { quantiseMember } from './quantise.js';
import { createRandom } from './random.js';
import type { Random } from './random.js';
import { rowOf, selectRows, toMatrix } from './sparse.js';
import type { SparseMatrix } from './sparse.js';
import { tokenise } from './text.js';
import { featurise, fitVectoriser } from './vectoriser.js';
import type { ProgressListener } from '../progress.js';

/**
 * Trains the ensemble. The TF-IDF features are fitted on every example. Each member holds out its own
 * slice of every intent's examples (the slices do not overlap while there are enough examples), is
 * trained on the rest with its own seeded random source, and gets the softmax temperature that fits the
 * slice best; with `refit` it is then trained again on every example. The same examples, options and
 * seed always give the same model. `onProgress` hears of each phase as it starts; it cannot change the
 * model.
 */
export function trainIntentClassifier(
  examples: readonly LabelledExample[],
  options: Partial<ClassifierOptions> = {},
  onProgress: ProgressListener = () => undefined,
): IntentClassifier {
  const settings: ClassifierOptions = { ...DEFAULT_OPTIONS, ...options };
  if (examples.length === 0)
    throw new ClassifierError('NLU_NO_TRAINING_DATA', 'No intent examples to train on.');
  if (settings.members.length === 0)
    throw new ClassifierError('NLU_BAD_OPTION', 'The classifier needs at least one ensemble member.');
  const labels = [...new Set(examples.map((example) => example.intent))];
  onProgress({ phase: 'features', step: 1, steps: 1 });
  const { vectoriser, set } = prepare(withIntentNames(examples, labels, settings), labels, settings);
  const random = createRandom(settings.seed);
  const slices = calibrationSlices(set.labels, examples.length, settings, random);
  const steps = settings.members.length;
  const members = settings.members.map((member, at) => {
    onProgress({ phase: 'classifier', step: at + 1, steps, detail: member.kind });
    return trainCalibrated(member, set, slices[at] ?? [], settings.refit, random.int(2 ** 31));
  });
  return new IntentClassifier({
    labels,
    vectoriser,
    members: settings.quantise ? members.map(quantiseMember) : members,
    options: settings,
  });
}

/** The training set with each example's coverage, which calibration needs as prediction uses it. */
interface CoveredSet extends TrainingSet {
  readonly coverage: Float64Array;
}

function prepare(
  examples: readonly LabelledExample[],
  labels: readonly string[],
  settings: ClassifierOptions,
) {
  const tokens = examples.map((example) => tokenise(example.text));
  const vectoriser = fitVectoriser(settings.blocks, tokens, settings.countUnseen);
  const featurised = tokens.map((document) => featurise(vectoriser, document));
  const labelIndex = new Map(labels.map((label, at) => [label, at]));
  const set: CoveredSet = {
    data: toMatrix(featurised.map((entry) => entry.vector)),
    labels: Int32Array.from(examples, (example) => labelIndex.get(example.intent) ?? 0),
    features: vectoriser.size,
    classes: labels.length,
    coverage: Float64Array.from(featurised, (entry) => entry.coverage),
  };
  return { vectoriser, set };
}

/** Each intent's own name as extra examples ("card_arrival" → "card arrival"), except out-of-scope ones. */
function withIntentNames(
  examples: readonly LabelledExample[],
  labels: readonly string[],
  settings: ClassifierOptions,
): LabelledExample[] {
  const names = labels
    .filter((intent) => !settings.outOfScopeIntents.includes(intent))
    .map((intent) => ({ text: intentNameText(intent), intent }))
    .filter((example) => example.text !== '');
  return [...examples, ...Array.from({ length: settings.intentNameExamples }, () => names).flat()];
}

export function intentNameText(intent: string): string {
  return intent
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_\-./:]+/g, ' ')
    .trim();
}

/**
 * One held-out slice per member: `calibrationShare` of each intent's real examples (intents with at
 * least 4), taken from a seeded shuffle so that member m's slice follows member m-1's.
 */
function calibrationSlices(labels: Int32Array, real: number, settings: ClassifierOptions, random: Random) {
  const slices: number[][] = settings.members.map(() => []);
  if (settings.calibrationShare <= 0) return slices;
  const byLabel = new Map<number, number[]>();
  for (let row = 0; row < real; row += 1) {
    const label = labels[row] as number;
    const rows = byLabel.get(label) ?? [];
    rows.push(row);
    byLabel.set(label, rows);
  }
  for (const rows of byLabel.values()) {
    if (rows.length < 4) continue;
    const order = shuffled(rows, random);
    const size = Math.max(1, Math.round(rows.length * settings.calibrationShare));
    slices.forEach((slice, member) => {
      for (let at = 0; at < size; at += 1) slice.push(order[(member * size + at) % order.length] as number);
    });
  }
  return slices.map((slice) => slice.sort((a, b) => a - b));
}

function shuffled(rows: readonly number[], random: Random): number[] {
  const order = [...rows];
  for (let at = order.length - 1; at > 0; at -= 1) {
    const other = random.int(at + 1);
    [order[at], order[other]] = [order[other] as number, order[at] as number];
  }
  return order;
}

function trainCalibrated(
  options: MemberOptions,
  set: CoveredSet,
  held: readonly number[],
  refit: boolean,
  seed: number,
): TrainedMember {
  if (held.length === 0) return trainMember(options, set, createRandom(seed));
  const heldOut = new Set(held);
  const kept = Array.from(set.labels.keys()).filter((row) => !heldOut.has(row));
  const subset = {
    ...set,
    data: selectRows(set.data, kept),
    labels: Int32Array.from(kept, (row) => set.labels[row] as number),
  };
  const first = trainMember(options, subset, createRandom(seed));
  const temperature = heldOutTemperature(
    first,
    selectRows(set.data, held),
    Int32Array.from(held, (row) => set.labels[row] as number),
    Float64Array.from(held, (row) => set.coverage[row] as number),
  );
  const final = refit ? trainMember(options, set, createRandom(seed)) : first;
  return { ...final, temperature };
}

/** The temperature for the held-out logits, each scaled by its message's coverage as at prediction. */
function heldOutTemperature(
  member: TrainedMember,
  data: SparseMatrix,
  labels: Int32Array,
  coverage: Float64Array,
): number {
  const classes = member.model.classes;
  const buffers = new ScoringBuffers(classes, hiddenSize(member));
  const logits = new Float64Array(data.rows * classes);
  for (let row = 0; row < data.rows; row += 1) {
    memberLogits(member, rowOf(data, row), buffers);
    const scale = coverage[row] as number;
    for (let c = 0; c < classes; c += 1) logits[row * classes + c] = (buffers.scores[c] as number) * scale;
  }
  return fitTemperature(logits, labels, classes);
}
