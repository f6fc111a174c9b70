/** A seeded pseudo-random source, so that training replays exactly (no Math.random). */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, bound). */
  int(bound: number): number;
}

/** mulberry32: small, fast and good enough for shuffling and sampling. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (bound) => Math.floor(next() * bound) };
}

/** 0..n-1 in a seeded random order. */
export function permutation(size: number, random: Random): Int32Array {
  const order = Int32Array.from({ length: size }, (_, at) => at);
  for (let index = size - 1; index > 0; index -= 1) {
    const other = random.int(index + 1);
    const kept = order[index] as number;
    order[index] = order[other] as number;
    order[other] = kept;
  }
  return order;
}
