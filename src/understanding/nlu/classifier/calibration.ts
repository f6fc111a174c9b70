/**
 * Temperature scaling: the T that minimises the held-out negative log-likelihood of softmax(z / T), with
 * a Gaussian prior on ln T around 0 worth PRIOR_WEIGHT examples. On a few held-out examples that are all
 * right, the likelihood alone would sharpen without bound (T -> 0) and make every answer look certain.
 */

const LOW = Math.log(0.05);
const HIGH = Math.log(20);
const PRIOR_WEIGHT = 2;
const STEPS = 60;
const GOLDEN = (Math.sqrt(5) - 1) / 2;

/** `logits` holds one row of `classes` scores per held-out example. */
export function fitTemperature(logits: Float64Array, labels: Int32Array, classes: number): number {
  if (labels.length === 0) return 1;
  let low = LOW;
  let high = HIGH;
  let left = high - GOLDEN * (high - low);
  let right = low + GOLDEN * (high - low);
  const loss = (logTemperature: number) =>
    negativeLogLikelihood(logits, labels, classes, Math.exp(logTemperature)) +
    (PRIOR_WEIGHT * logTemperature * logTemperature) / labels.length;
  let leftLoss = loss(left);
  let rightLoss = loss(right);
  for (let step = 0; step < STEPS; step += 1) {
    if (leftLoss < rightLoss) {
      [high, right, rightLoss] = [right, left, leftLoss];
      left = high - GOLDEN * (high - low);
      leftLoss = loss(left);
    } else {
      [low, left, leftLoss] = [left, right, rightLoss];
      right = low + GOLDEN * (high - low);
      rightLoss = loss(right);
    }
  }
  return Math.exp((low + high) / 2);
}

function negativeLogLikelihood(
  logits: Float64Array,
  labels: Int32Array,
  classes: number,
  temperature: number,
): number {
  let total = 0;
  for (let row = 0; row < labels.length; row += 1) {
    const base = row * classes;
    let max = -Infinity;
    for (let c = 0; c < classes; c += 1) max = Math.max(max, (logits[base + c] as number) / temperature);
    let sum = 0;
    for (let c = 0; c < classes; c += 1) sum += Math.exp((logits[base + c] as number) / temperature - max);
    total += max + Math.log(sum) - (logits[base + (labels[row] as number)] as number) / temperature;
  }
  return total / labels.length;
}
