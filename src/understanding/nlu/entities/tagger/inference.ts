import { transitionAllowed } from './labels.js';

/**
 * Transition scores with the BIO constraint built in: `(numTags + 1) x numTags`, row `numTags` being the
 * start of the text, forbidden transitions -Infinity.
 */
export function constrainedTransitions(transitions: Float64Array, numTags: number): Float64Array {
  return transitions.map((score, at) => {
    const from = Math.floor(at / numTags);
    return transitionAllowed(from === numTags ? undefined : from, at % numTags) ? score : -Infinity;
  });
}

/** The transition scores in the forms inference needs; depends only on the weights, so it can be cached. */
export interface ChainTables {
  readonly numTags: number;
  /** see constrainedTransitions */
  readonly transitions: Float64Array;
  /** exp of the tag-to-tag rows, shifted by their maximum */
  readonly move: Float64Array;
  /** exp of the start row, shifted by its maximum */
  readonly start: Float64Array;
}

export function chainTables(transitions: Float64Array, numTags: number): ChainTables {
  const constrained = constrainedTransitions(transitions, numTags);
  return {
    numTags,
    transitions: constrained,
    move: exponentiate(constrained.subarray(0, numTags * numTags)),
    start: exponentiate(constrained.subarray(numTags * numTags)),
  };
}

/** The best tag sequence (Viterbi). */
export function viterbi(
  emissions: readonly Float64Array[],
  transitions: Float64Array,
  numTags: number,
): number[] {
  const back: Int32Array[] = [];
  let scores = new Float64Array(numTags);
  emissions.forEach((emission, index) => {
    const next = new Float64Array(numTags);
    const pointers = new Int32Array(numTags);
    for (let tag = 0; tag < numTags; tag++) {
      let best = -Infinity;
      let from = 0;
      if (index === 0) best = transitions[numTags * numTags + tag] ?? -Infinity;
      for (let previous = 0; index > 0 && previous < numTags; previous++) {
        const score = (scores[previous] ?? 0) + (transitions[previous * numTags + tag] ?? 0);
        if (score > best) [best, from] = [score, previous];
      }
      next[tag] = best + (emission[tag] ?? 0);
      pointers[tag] = from;
    }
    back.push(pointers);
    scores = next;
  });
  return backtrack(scores, back);
}

function backtrack(scores: Float64Array, back: readonly Int32Array[]): number[] {
  if (back.length === 0) return [];
  let best = 0;
  scores.forEach((score, tag) => {
    if (score > (scores[best] ?? -Infinity)) best = tag;
  });
  const path = [best];
  for (let index = back.length - 1; index > 0; index--) {
    best = back[index]?.[best] ?? 0;
    path.unshift(best);
  }
  return path;
}

/**
 * Per-token marginal probabilities of each tag, reading the scores as log-potentials of a linear-chain
 * CRF: `result[i][t]` = P(tag i is t | text). Scaled forward-backward in probability space; the scores
 * are shifted first (which leaves the distribution unchanged) so nothing overflows.
 */
export function marginals(emissions: readonly Float64Array[], chain: ChainTables): Float64Array[] {
  const local = emissions.map((emission) => exponentiate(emission));
  const alpha = forward(local, chain.move, chain.start);
  const beta = backward(local, chain.move, alpha.scales);
  return alpha.rows.map((row, i) => {
    const after = beta[i] ?? row;
    const posterior = new Float64Array(row.length);
    row.forEach((value, tag) => (posterior[tag] = value * (after[tag] ?? 0)));
    normalise(posterior);
    return posterior;
  });
}

function forward(local: readonly Float64Array[], move: Float64Array, start: Float64Array) {
  const numTags = start.length;
  const rows: Float64Array[] = [];
  const scales: number[] = [];
  let previous = start;
  local.forEach((emission, i) => {
    const row = new Float64Array(numTags);
    for (let tag = 0; tag < numTags; tag++) {
      let incoming = 0;
      if (i === 0) incoming = previous[tag] ?? 0;
      else for (let p = 0; p < numTags; p++) incoming += (previous[p] ?? 0) * (move[p * numTags + tag] ?? 0);
      row[tag] = incoming * (emission[tag] ?? 0);
    }
    scales.push(normalise(row));
    rows.push(row);
    previous = row;
  });
  return { rows, scales };
}

function backward(
  local: readonly Float64Array[],
  move: Float64Array,
  scales: readonly number[],
): Float64Array[] {
  const numTags = local[0]?.length ?? 0;
  const rows = local.map(() => new Float64Array(numTags).fill(1));
  for (let i = local.length - 2; i >= 0; i--) {
    const row = rows[i] ?? new Float64Array(numTags);
    const next = rows[i + 1] ?? row;
    const emission = local[i + 1] ?? row;
    const scale = scales[i + 1] || 1;
    for (let tag = 0; tag < numTags; tag++) {
      let outgoing = 0;
      for (let t = 0; t < numTags; t++)
        outgoing += (move[tag * numTags + t] ?? 0) * (emission[t] ?? 0) * (next[t] ?? 0);
      row[tag] = outgoing / scale;
    }
  }
  return rows;
}

/** exp(score - max) for every score; -Infinity becomes 0. */
function exponentiate(scores: Float64Array): Float64Array {
  let max = -Infinity;
  for (let at = 0; at < scores.length; at++) max = Math.max(max, scores[at] ?? -Infinity);
  const result = new Float64Array(scores.length);
  for (let at = 0; at < scores.length; at++) {
    const score = scores[at] ?? -Infinity;
    result[at] = score === -Infinity ? 0 : Math.exp(score - max);
  }
  return result;
}

/** Divides the row by its sum in place and returns the sum. */
function normalise(row: Float64Array): number {
  let sum = 0;
  for (const value of row) sum += value;
  if (sum > 0) for (let at = 0; at < row.length; at++) row[at] = (row[at] ?? 0) / sum;
  return sum;
}
