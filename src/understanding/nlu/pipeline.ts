import type { Assistant } from '../../core/assistant.js';
import type { IntentClassifier } from './classifier/classifier.js';
import { classifierOptionsFromPipeline } from './classifier/pipeline-options.js';
import { trainIntentClassifier } from './classifier/training.js';
import { extractEntities, trainEntityExtractors } from './entities/model.js';
import type { EntityModel } from './entities/model.js';
import type { NluInterpreter } from './nlu-command-generator.js';
import { nluTrainingData } from './training-data.js';
import type { ProgressListener } from './progress.js';

export { nluTrainingData };

export interface TrainedNlu {
  readonly classifier: IntentClassifier;
  readonly entities: EntityModel;
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
 * Trains the offline pipeline the way the project's config.yml asks for (`classifierOptionsFromPipeline`:
 * featurizers, classifier, fallback threshold); a pipeline that names no NLU component gets Parley's
 * default one. The same project and seed always give the same model.
 */
export function trainNlu(assistant: Assistant, options: TrainNluOptions = {}): TrainedNlu {
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
  return { classifier, entities };
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
