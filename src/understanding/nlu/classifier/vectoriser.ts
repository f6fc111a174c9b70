import { blockGrams } from './ngrams.js';
import type { FeatureBlock } from './ngrams.js';
import type { SparseVector } from './sparse.js';

/**
 * TF-IDF over several n-gram blocks: TF = 1 + ln(count), IDF = ln((1 + N) / (1 + df)) + 1, each block
 * L2-normalised and scaled by its weight. Block b's features follow those of blocks 0..b-1.
 *
 * n-grams outside the vocabulary have no feature, but they are weighed (with `unseenIdf`, the IDF of
 * an n-gram no text had) to measure the message's coverage: a message made mostly of unseen words has
 * a low coverage, and the classifier flattens its scores accordingly instead of reading everything into
 * the few words it knows. `unseenIdf` 0 turns this off.
 */
export interface Vectoriser {
  readonly blocks: readonly FeatureBlock[];
  readonly vocabularies: readonly ReadonlyMap<string, number>[];
  readonly idf: Float32Array;
  readonly unseenIdf: number;
  readonly size: number;
}

export function fitVectoriser(
  blocks: readonly FeatureBlock[],
  documents: readonly string[][],
  countUnseen: boolean,
): Vectoriser {
  const vocabularies: Map<string, number>[] = [];
  const idfs: number[] = [];
  for (const block of blocks) {
    const df = new Map<string, number>();
    for (const tokens of documents) {
      for (const gram of new Set(blockGrams(block, tokens))) df.set(gram, (df.get(gram) ?? 0) + 1);
    }
    const vocabulary = new Map<string, number>();
    for (const [gram, count] of keptGrams(df, block)) {
      vocabulary.set(gram, idfs.length);
      idfs.push(Math.log((1 + documents.length) / (1 + count)) + 1);
    }
    vocabularies.push(vocabulary);
  }
  const unseenIdf = countUnseen ? Math.log(1 + documents.length) + 1 : 0;
  return { blocks, vocabularies, idf: Float32Array.from(idfs), unseenIdf, size: idfs.length };
}

/**
 * The n-grams seen in at least `minDf` texts. When there are more than `maxFeatures`, the threshold is
 * raised until they fit, so rare n-grams go first and equally frequent ones are never split arbitrarily.
 */
function keptGrams(df: ReadonlyMap<string, number>, block: FeatureBlock): [string, number][] {
  let minDf = block.minDf;
  let kept = [...df].filter(([, count]) => count >= minDf);
  while (kept.length > block.maxFeatures) {
    minDf += 1;
    kept = kept.filter(([, count]) => count >= minDf);
  }
  return kept;
}

export function vectorise(vectoriser: Vectoriser, tokens: readonly string[]): SparseVector {
  return featurise(vectoriser, tokens).vector;
}

/** The TF-IDF vector, and how much of the message's TF-IDF mass the vocabulary covers (0 to 1). */
export interface Featurised {
  readonly vector: SparseVector;
  readonly coverage: number;
}

export function featurise(vectoriser: Vectoriser, tokens: readonly string[]): Featurised {
  const indices: number[] = [];
  const values: number[] = [];
  let covered = 0;
  let total = 0;
  vectoriser.blocks.forEach((block, at) => {
    const vocabulary = vectoriser.vocabularies[at];
    if (!vocabulary) return;
    const mass = appendBlock(block, vocabulary, vectoriser, tokens, indices, values);
    const all = mass.known + mass.unseen;
    covered += all === 0 ? 0 : (block.weight * block.weight * mass.known) / all;
    total += block.weight * block.weight;
  });
  const order = indices.map((_, at) => at).sort((a, b) => (indices[a] as number) - (indices[b] as number));
  const vector = {
    indices: Int32Array.from(order, (at) => indices[at] as number),
    values: Float32Array.from(order, (at) => values[at] as number),
  };
  return { vector, coverage: total === 0 ? 0 : Math.sqrt(covered / total) };
}

/** Appends the block's normalised features; returns the squared TF-IDF mass of known and unseen n-grams. */
function appendBlock(
  block: FeatureBlock,
  vocabulary: ReadonlyMap<string, number>,
  vectoriser: Vectoriser,
  tokens: readonly string[],
  indices: number[],
  values: number[],
): { known: number; unseen: number } {
  const { idf, unseenIdf } = vectoriser;
  const counts = new Map<number, number>();
  const unseenCounts = new Map<string, number>();
  for (const gram of blockGrams(block, tokens)) {
    const index = vocabulary.get(gram);
    if (index !== undefined) counts.set(index, (counts.get(index) ?? 0) + 1);
    else unseenCounts.set(gram, (unseenCounts.get(gram) ?? 0) + 1);
  }
  let unseen = 0;
  for (const count of unseenCounts.values()) unseen += ((1 + Math.log(count)) * unseenIdf) ** 2;
  let known = 0;
  const start = values.length;
  for (const [index, count] of counts) {
    const value = (1 + Math.log(count)) * (idf[index] as number);
    indices.push(index);
    values.push(value);
    known += value * value;
  }
  if (known === 0) return { known, unseen };
  const scale = block.weight / Math.sqrt(known);
  for (let at = start; at < values.length; at += 1) values[at] = (values[at] as number) * scale;
  return { known, unseen };
}
