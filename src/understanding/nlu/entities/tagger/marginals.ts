import { transitionAllowed } from './labels.js';

export interface ChainScores {
  readonly numTags: number;
  transition(previous: number | undefined, next: number): number;
}

/**
 * Per-token marginal probabilities of each tag, reading the chain's scores as log-potentials of a
 * linear-chain CRF (forward-backward in log space): `result[i][t]` = P(tag i is t | text).
 */
export function tagMarginals(emissions: readonly Float64Array[], chain: ChainScores): Float64Array[] {
  const forward = forwardScores(emissions, chain);
  const backward = backwardScores(emissions, chain);
  const total = logSumExp(Array.from(forward[forward.length - 1] ?? []));
  return emissions.map((_, index) => {
    const alpha = forward[index] ?? new Float64Array(chain.numTags);
    const beta = backward[index] ?? new Float64Array(chain.numTags);
    return alpha.map((score, tag) => Math.exp(score + (beta[tag] ?? 0) - total));
  });
}

function forwardScores(emissions: readonly Float64Array[], chain: ChainScores): Float64Array[] {
  const result: Float64Array[] = [];
  emissions.forEach((emission, index) => {
    const previous = result[index - 1];
    result.push(
      emission.map((score, tag) => {
        if (!previous)
          return transitionAllowed(undefined, tag) ? score + chain.transition(undefined, tag) : -Infinity;
        const incoming = Array.from(previous, (alpha, from) =>
          transitionAllowed(from, tag) ? alpha + chain.transition(from, tag) : -Infinity,
        );
        return score + logSumExp(incoming);
      }),
    );
  });
  return result;
}

function backwardScores(emissions: readonly Float64Array[], chain: ChainScores): Float64Array[] {
  const result: Float64Array[] = emissions.map(() => new Float64Array(chain.numTags));
  for (let index = emissions.length - 2; index >= 0; index--) {
    const next = result[index + 1] ?? new Float64Array(chain.numTags);
    const emission = emissions[index + 1] ?? new Float64Array(chain.numTags);
    result[index] = new Float64Array(chain.numTags).map((_, tag) =>
      logSumExp(
        Array.from(next, (beta, to) =>
          transitionAllowed(tag, to) ? chain.transition(tag, to) + (emission[to] ?? 0) + beta : -Infinity,
        ),
      ),
    );
  }
  return result;
}

function logSumExp(values: readonly number[]): number {
  const max = Math.max(...values);
  if (max === -Infinity) return -Infinity;
  return max + Math.log(values.reduce((sum, value) => sum + Math.exp(value - max), 0));
}
