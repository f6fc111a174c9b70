import { load, CORE_SCHEMA } from 'js-yaml';
import type { Assistant } from '../../core/assistant.js';
import type { IntentExamples, NluData } from '../../core/domain/nlu-data.js';
import { nluDataFromDocument } from '../../core/domain/nlu-examples.js';
import type { IntentClassifier } from './classifier/classifier.js';
import { trainIntentClassifier } from './classifier/training.js';
import { extractEntities, trainEntityExtractors } from './entities/model.js';
import type { EntityModel } from './entities/model.js';
import type { NluInterpreter } from './nlu-command-generator.js';
import { FLOW_INTENT_PREFIX } from './nlu-command-generator.js';
import { repairTrainingDataText } from './repair-intents.js';

export interface TrainedNlu {
  readonly classifier: IntentClassifier;
  readonly entities: EntityModel;
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

export function trainNlu(assistant: Assistant, options: { seed?: number } = {}): TrainedNlu {
  const data = nluTrainingData(assistant);
  const examples = data.intents.flatMap((entry) =>
    entry.examples.map((example) => ({ text: example.text, intent: entry.intent })),
  );
  const classifier = trainIntentClassifier(examples, {
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  const entities = trainEntityExtractors(data, {
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
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
