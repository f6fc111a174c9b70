/** Scores of a labelled test set; out-of-scope gold labels and predictions are pooled into one class. */

export interface Outcome {
  /** The gold label, with every out-of-scope label replaced by OUT_OF_SCOPE. */
  readonly gold: string;
  /** The predicted intent, with the fallback and out-of-scope intents replaced by OUT_OF_SCOPE. */
  readonly predicted: string;
  /** The best trained in-scope intent, ignoring the fallback threshold. */
  readonly top: string;
  /** The best trained intent (OUT_OF_SCOPE for a trained out-of-scope intent) and its confidence. */
  readonly first: string;
  readonly confidence: number;
}

export const OUT_OF_SCOPE = 'out_of_scope';

export interface OutOfScopeScores {
  readonly examples: number;
  readonly recall: number;
  readonly precision: number;
  /** In-scope examples given their own intent (not sent to the fallback). */
  readonly inScopeAccuracy: number;
}

export function accuracy(outcomes: readonly Outcome[]): number {
  return share(outcomes.filter((outcome) => outcome.predicted === outcome.gold).length, outcomes.length);
}

/** Accuracy of the best trained intent on the in-scope examples, as if there were no fallback. */
export function intentAccuracy(outcomes: readonly Outcome[]): number {
  const inScope = outcomes.filter((outcome) => outcome.gold !== OUT_OF_SCOPE);
  return share(inScope.filter((outcome) => outcome.top === outcome.gold).length, inScope.length);
}

/** The unweighted mean F1 over every gold label and every predicted label. */
export function macroF1(outcomes: readonly Outcome[]): number {
  const labels = new Set(outcomes.flatMap((outcome) => [outcome.gold, outcome.predicted]));
  let total = 0;
  for (const label of labels) {
    const truePositives = outcomes.filter((o) => o.gold === label && o.predicted === label).length;
    const predicted = outcomes.filter((o) => o.predicted === label).length;
    const actual = outcomes.filter((o) => o.gold === label).length;
    total += predicted + actual === 0 ? 0 : (2 * truePositives) / (predicted + actual);
  }
  return labels.size === 0 ? 0 : total / labels.size;
}

/** Undefined when the test set has no out-of-scope examples. */
export function outOfScopeScores(outcomes: readonly Outcome[]): OutOfScopeScores | undefined {
  const gold = outcomes.filter((outcome) => outcome.gold === OUT_OF_SCOPE);
  if (gold.length === 0) return undefined;
  const flagged = outcomes.filter((outcome) => outcome.predicted === OUT_OF_SCOPE);
  const inScope = outcomes.filter((outcome) => outcome.gold !== OUT_OF_SCOPE);
  return {
    examples: gold.length,
    recall: share(gold.filter((outcome) => outcome.predicted === OUT_OF_SCOPE).length, gold.length),
    precision: share(flagged.filter((outcome) => outcome.gold === OUT_OF_SCOPE).length, flagged.length),
    inScopeAccuracy: share(
      inScope.filter((outcome) => outcome.predicted === outcome.gold).length,
      inScope.length,
    ),
  };
}

export interface CurvePoint {
  readonly threshold: number;
  readonly inScopeAccuracy: number;
  readonly outOfScopeRecall: number;
}

/** In-scope accuracy against out-of-scope recall for a range of fallback thresholds. */
export function thresholdCurve(outcomes: readonly Outcome[], thresholds: readonly number[]): CurvePoint[] {
  const inScope = outcomes.filter((outcome) => outcome.gold !== OUT_OF_SCOPE);
  const outside = outcomes.filter((outcome) => outcome.gold === OUT_OF_SCOPE);
  const at = (outcome: Outcome, threshold: number) =>
    outcome.confidence < threshold ? OUT_OF_SCOPE : outcome.first;
  return thresholds.map((threshold) => ({
    threshold,
    inScopeAccuracy: share(inScope.filter((o) => at(o, threshold) === o.gold).length, inScope.length),
    outOfScopeRecall: share(outside.filter((o) => at(o, threshold) === OUT_OF_SCOPE).length, outside.length),
  }));
}

/** The value below which `fraction` of the (unsorted) values fall, nearest-rank. */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1] as number;
}

function share(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}
