import type { IntentClassifier } from './classifier.js';
import type { LabelledExample } from './dataset.js';
import {
  accuracy,
  intentAccuracy,
  macroF1,
  OUT_OF_SCOPE,
  outOfScopeScores,
  percentile,
  thresholdCurve,
} from './metrics.js';
import type { CurvePoint, Outcome, OutOfScopeScores } from './metrics.js';
import { trainIntentClassifier } from './training.js';
import { OUT_OF_SCOPE_INTENTS } from './options.js';
import type { ClassifierOptions } from './options.js';

export interface EvaluationReport {
  readonly trainExamples: number;
  readonly testExamples: number;
  readonly intents: number;
  /** Predicted intent (after the fallback) equals the gold label; out-of-scope labels count as one. */
  readonly accuracy: number;
  /** The best trained intent on in-scope examples, ignoring the fallback threshold. */
  readonly intentAccuracy: number;
  readonly macroF1: number;
  readonly outOfScope: OutOfScopeScores | undefined;
  /** With out-of-scope test examples: in-scope accuracy and out-of-scope recall per fallback threshold. */
  readonly thresholdCurve: readonly CurvePoint[] | undefined;
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly mean: number };
  readonly trainingSeconds: number;
  readonly modelBytes: number;
}

const WARM_UP = 20;
const CURVE_THRESHOLDS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/** Trains on one set and scores another: accuracy, macro-F1, out-of-scope, latency, time and size. */
export function trainAndEvaluate(
  train: readonly LabelledExample[],
  test: readonly LabelledExample[],
  options: Partial<ClassifierOptions> = {},
): EvaluationReport {
  const started = performance.now();
  const classifier = trainIntentClassifier(train, options);
  const trainingSeconds = (performance.now() - started) / 1000;
  return {
    ...evaluateClassifier(classifier, test),
    trainExamples: train.length,
    trainingSeconds,
    modelBytes: classifier.serialize().length,
  };
}

export function evaluateClassifier(
  classifier: IntentClassifier,
  test: readonly LabelledExample[],
): Omit<EvaluationReport, 'trainExamples' | 'trainingSeconds' | 'modelBytes'> {
  const outOfScope = new Set([...OUT_OF_SCOPE_INTENTS, ...classifier.options.outOfScopeIntents]);
  for (const example of test.slice(0, WARM_UP)) classifier.predict(example.text);
  const latencies: number[] = [];
  const outcomes = test.map((example): Outcome => {
    const started = performance.now();
    const prediction = classifier.predict(example.text);
    latencies.push(performance.now() - started);
    const top = prediction.ranking.find((score) => !outOfScope.has(score.intent))?.intent ?? OUT_OF_SCOPE;
    const first = prediction.ranking[0];
    return {
      gold: outOfScope.has(example.intent) ? OUT_OF_SCOPE : example.intent,
      predicted: prediction.outOfScope ? OUT_OF_SCOPE : prediction.intent,
      top,
      first: first === undefined || outOfScope.has(first.intent) ? OUT_OF_SCOPE : first.intent,
      confidence: first?.confidence ?? 0,
    };
  });
  return {
    testExamples: test.length,
    intents: classifier.labels.length,
    accuracy: accuracy(outcomes),
    intentAccuracy: intentAccuracy(outcomes),
    macroF1: macroF1(outcomes),
    outOfScope: outOfScopeScores(outcomes),
    thresholdCurve: outcomes.some((outcome) => outcome.gold === OUT_OF_SCOPE)
      ? thresholdCurve(outcomes, CURVE_THRESHOLDS)
      : undefined,
    latencyMs: {
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      mean: latencies.reduce((sum, value) => sum + value, 0) / Math.max(1, latencies.length),
    },
  };
}
