import { fitTemperature } from './calibration.js';
import { IntentClassifier } from './classifier.js';
import type { LabelledExample } from './dataset.js';
import { ClassifierError } from './errors.js';
import { memberLogits, ScoringBuffers, trainMember, hiddenSize } from './members.js';
import type { TrainedMember, TrainingSet } from './members.js';
import { DEFAULT_OPTIONS } from './options.js';
import type { ClassifierOptions } from './options.js';
import { quantiseMember } from './quantise.js';
import { createRandom } from './random.js';
import type { Random } from './random.js';
import { rowOf, toMatrix } from './sparse.js';
import { tokenise } from './text.js';
import { fitVectoriser, vectorise } from './vectoriser.js';
import type { Vectoriser } from './vectoriser.js';

interface Tokenised {
  readonly tokens: string[];
  readonly label: number;
}

/**
 * Trains the ensemble: features fitted on the examples, each member trained with its own seeded random
 * source, softmax temperatures fitted on a held-out slice, then (by default) every member trained again
 * on all the examples. The same examples, options and seed give the same model.
 */
export function trainIntentClassifier(
  examples: readonly LabelledExample[],
  options: Partial<ClassifierOptions> = {},
): IntentClassifier {
  const settings: ClassifierOptions = { ...DEFAULT_OPTIONS, ...options };
  if (examples.length === 0)
    throw new ClassifierError('NLU_NO_TRAINING_DATA', 'No intent examples to train on.');
  if (settings.members.length === 0)
    throw new ClassifierError('NLU_BAD_OPTION', 'The classifier needs at least one ensemble member.');
  const labels = [...new Set(examples.map((example) => example.intent))];
  const documents = withIntentNames(examples, labels, settings).map((example): Tokenised => ({
    tokens: tokenise(example.text),
    label: labels.indexOf(example.intent),
  }));
  const random = createRandom(settings.seed);
  const { fit, held } = calibrationSplit(documents, examples.length, settings.calibrationShare, random);
  const memberSeeds = settings.members.map(() => random.int(2 ** 31));
  let trained = trainAll(fit, labels.length, settings, memberSeeds);
  if (held.length > 0) {
    const temperatures = calibrate(trained, held, labels.length);
    if (settings.refit) trained = trainAll(documents, labels.length, settings, memberSeeds);
    trained = {
      ...trained,
      members: trained.members.map((member, at) => ({ ...member, temperature: temperatures[at] ?? 1 })),
    };
  }
  const members = settings.quantise ? trained.members.map(quantiseMember) : trained.members;
  return new IntentClassifier({ labels, vectoriser: trained.vectoriser, members, options: settings });
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
  const copies = Array.from({ length: settings.intentNameExamples }, () => names).flat();
  return [...examples, ...copies];
}

export function intentNameText(intent: string): string {
  return intent
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_\-./:]+/g, ' ')
    .trim();
}

/** Holds out a share of each intent's real examples (only intents with at least 4 of them). */
function calibrationSplit(documents: readonly Tokenised[], real: number, share: number, random: Random) {
  const byLabel = new Map<number, number[]>();
  documents.slice(0, real).forEach((document, at) => {
    byLabel.set(document.label, [...(byLabel.get(document.label) ?? []), at]);
  });
  const heldOut = new Set<number>();
  if (share > 0) {
    for (const positions of byLabel.values()) {
      if (positions.length < 4) continue;
      const count = Math.max(1, Math.round(positions.length * share));
      for (let taken = 0; taken < count; taken += 1) {
        const pick = taken + random.int(positions.length - taken);
        [positions[taken], positions[pick]] = [positions[pick] as number, positions[taken] as number];
        heldOut.add(positions[taken] as number);
      }
    }
  }
  return {
    fit: documents.filter((_, at) => !heldOut.has(at)),
    held: documents.filter((_, at) => heldOut.has(at)),
  };
}

interface Trained {
  readonly vectoriser: Vectoriser;
  readonly members: readonly TrainedMember[];
}

function trainAll(
  documents: readonly Tokenised[],
  classes: number,
  settings: ClassifierOptions,
  seeds: readonly number[],
): Trained {
  const vectoriser = fitVectoriser(
    settings.blocks,
    documents.map((document) => document.tokens),
  );
  const set: TrainingSet = {
    data: toMatrix(documents.map((document) => vectorise(vectoriser, document.tokens))),
    labels: Int32Array.from(documents, (document) => document.label),
    features: vectoriser.size,
    classes,
  };
  const members = settings.members.map((member, at) =>
    trainMember(member, set, createRandom(seeds[at] ?? 0)),
  );
  return { vectoriser, members };
}

/** One temperature per member, fitted on the held-out examples. */
function calibrate(trained: Trained, held: readonly Tokenised[], classes: number): number[] {
  const vectors = toMatrix(held.map((document) => vectorise(trained.vectoriser, document.tokens)));
  const labels = Int32Array.from(held, (document) => document.label);
  return trained.members.map((member) => {
    const buffers = new ScoringBuffers(classes, hiddenSize(member));
    const logits = new Float64Array(held.length * classes);
    for (let row = 0; row < held.length; row += 1) {
      memberLogits(member, rowOf(vectors, row), buffers);
      logits.set(buffers.scores, row * classes);
    }
    return fitTemperature(logits, labels, classes);
  });
}
