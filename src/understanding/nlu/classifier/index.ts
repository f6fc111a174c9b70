/** Parley's offline intent classifier: TF-IDF word and character n-grams, a calibrated ensemble. */
export { trainIntentClassifier, intentNameText } from './training.js';
export { IntentClassifier } from './classifier.js';
export type { IntentPrediction, IntentScore } from './classifier.js';
export { deserializeIntentClassifier } from './model-reader.js';
export { DEFAULT_OPTIONS, OUT_OF_SCOPE_INTENTS } from './options.js';
export type {
  ClassifierOptions,
  FallbackOptions,
  LinearMemberOptions,
  MemberOptions,
  MlpMemberOptions,
} from './options.js';
export type { FeatureBlock, CharBlock, WordBlock } from './ngrams.js';
export { classifierOptionsFromPipeline } from './pipeline-options.js';
export type { PipelineComponent } from './pipeline-options.js';
export { readCsvExamples, readNluYamlExamples } from './dataset.js';
export type { LabelledExample } from './dataset.js';
export { trainAndEvaluate, evaluateClassifier } from './evaluate.js';
export type { EvaluationReport } from './evaluate.js';
export { ClassifierError } from './errors.js';
export type { ClassifierErrorCode } from './errors.js';
export { normaliseText, tokenise } from './text.js';
