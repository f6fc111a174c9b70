import { load, CORE_SCHEMA } from 'js-yaml';
import type { Assistant, ComponentConfig } from '../../core/assistant.js';
import type { IntentExamples, NluData } from '../../core/domain/nlu-data.js';
import { nluDataFromDocument } from '../../core/domain/nlu-examples.js';
import type { IntentClassifier } from './classifier/classifier.js';
import { classifierOptionsFromPipeline } from './classifier/pipeline-options.js';
import { trainIntentClassifier } from './classifier/training.js';
import { extractEntities, trainEntityExtractors } from './entities/model.js';
import type { EntityModel } from './entities/model.js';
import type { NluInterpreter } from './nlu-command-generator.js';
import { FLOW_INTENT_PREFIX } from './nlu-command-generator.js';
import type { ProgressListener } from './progress.js';
import { repairTrainingDataText } from './repair-intents.js';

export interface TrainedNlu {
  readonly classifier: IntentClassifier;
  readonly entities: EntityModel;
}

/** A freshly trained pipeline, with what training has to say about the project's config (for the user). */
export interface NluTraining extends TrainedNlu {
  readonly notes: readonly string[];
}

export interface TrainNluOptions {
  /** replaces the seed of config.yml (`random_seed` / `random_state` of the classifier) */
  readonly seed?: number;
  readonly onProgress?: ProgressListener;
  /**
   * train on the project's own NLU data only, as Rasa's NLU components do (a hybrid pipeline, whose
   * router and NLU command adapter act on the project's intents); default: Parley's offline data
   */
  readonly projectDataOnly?: boolean;
}

/**
 * The training data of an assistant's offline understanding: its own NLU examples, Parley's
 * conversation-repair intents (a project intent of the same name replaces one), and for every flow
 * without an nlu_trigger its name and description as examples of a pseudo-intent that starts it.
 */
export function nluTrainingData(assistant: Assistant): NluData {
  const own = assistant.nlu;
  const ownIntents = new Set(own.intents.map((entry) => entry.intent));
  const repair = nluDataFromDocument(load(repairTrainingDataText(), { schema: CORE_SCHEMA }));
  const flowIntents: IntentExamples[] = assistant.flows.userFlows
    .filter((flow) => flow.nluTriggers.length === 0 && flow.description.trim() !== '')
    .map((flow) => ({
      intent: `${FLOW_INTENT_PREFIX}${flow.id}`,
      examples: [flow.name, flow.description].map((text) => ({ text, entities: [] })),
    }));
  return {
    intents: [
      ...own.intents,
      ...repair.intents.filter((entry) => !ownIntents.has(entry.intent)),
      ...flowIntents,
    ],
    synonyms: own.synonyms,
    regexes: own.regexes,
    lookups: own.lookups,
  };
}

/**
 * Trains the offline pipeline the way the project's config.yml asks for (`classifierOptionsFromPipeline`:
 * featurizers, classifier, fallback threshold); a pipeline that names no NLU component gets Parley's
 * default one. The same project and seed always give the same model.
 */
export function trainNlu(assistant: Assistant, options: TrainNluOptions = {}): NluTraining {
  const data = options.projectDataOnly ? assistant.nlu : nluTrainingData(assistant);
  const examples = data.intents.flatMap((entry) =>
    entry.examples.map((example) => ({ text: example.text, intent: entry.intent })),
  );
  const seed = options.seed !== undefined ? { seed: options.seed } : {};
  const onProgress = options.onProgress ?? (() => undefined);
  const settings = { ...classifierOptionsFromPipeline(assistant.config.pipeline), ...seed };
  const classifier = trainIntentClassifier(examples, settings, onProgress);
  onProgress({ phase: 'entities', step: 1, steps: 1 });
  const entities = trainEntityExtractors(data, seed);
  return { classifier, entities, notes: pipelineNotes(assistant.config.pipeline) };
}

/** What the user should know about components Parley accepts but does not run as Rasa would. */
export function pipelineNotes(pipeline: readonly ComponentConfig[]): string[] {
  if (!pipeline.some((component) => component.name === 'DIETClassifier')) return [];
  return [
    'DIETClassifier: Parley does not run DIET; it trains its own intent classifier in its place ' +
      '(TF-IDF word and character n-grams, a calibrated ensemble of logistic regression and small MLPs). ' +
      "Only its random_seed option is read; entities come from Parley's entity extractors.",
  ];
}

/** The trained pipeline as the command generator reads it; dates are read relative to `today`. */
export function nluInterpreter(trained: TrainedNlu, today: () => Date): NluInterpreter {
  return {
    interpret(text) {
      const predicted = trained.classifier.predict(text);
      const outOfScope = predicted.outOfScope;
      return {
        prediction: {
          intent: outOfScope ? null : predicted.intent,
          confidence: predicted.confidence,
          ranking: predicted.ranking,
        },
        entities: extractEntities(text, trained.entities, { referenceDate: today() }),
      };
    },
  };
}
