import { blockGrams } from './ngrams.js';
import type { FeatureBlock } from './ngrams.js';
import type { SparseVector } from './sparse.js';

/**
 * TF-IDF over several n-gram blocks: TF = 1 + ln(count), IDF = ln((1 + N) / (1 + df)) + 1, each block
 * L2-normalised and scaled by its weight. Feature indices of block b start at `offsets[b]`.
 */
export interface Vectoriser {
  readonly blocks: readonly FeatureBlock[];
  readonly vocabularies: readonly ReadonlyMap<string, number>[];
  readonly idf: Float32Array;
  readonly size: number;
}

export function fitVectoriser(blocks: readonly FeatureBlock[], documents: readonly string[][]): Vectoriser {
  const vocabularies: Map<string, number>[] = [];
  const idfs: number[] = [];
  for (const block of blocks) {
    const df = new Map<string, number>();
    for (const tokens of documents) {
      for (const gram of new Set(blockGrams(block, tokens))) df.set(gram, (df.get(gram) ?? 0) + 1);
    }
    const vocabulary = new Map<string, number>();
    for (const [gram, count] of df) {
      if (count < block.minDf) continue;
      vocabulary.set(gram, idfs.length);
      idfs.push(Math.log((1 + documents.length) / (1 + count)) + 1);
    }
    vocabularies.push(vocabulary);
  }
  return { blocks, vocabularies, idf: Float32Array.from(idfs), size: idfs.length };
}

export function vectorise(vectoriser: Vectoriser, tokens: readonly string[]): SparseVector {
  const indices: number[] = [];
  const values: number[] = [];
  vectoriser.blocks.forEach((block, at) => {
    const vocabulary = vectoriser.vocabularies[at];
    if (vocabulary) appendBlock(block, vocabulary, vectoriser.idf, tokens, indices, values);
  });
  const order = indices.map((_, at) => at).sort((a, b) => (indices[a] as number) - (indices[b] as number));
  return {
    indices: Int32Array.from(order, (at) => indices[at] as number),
    values: Float32Array.from(order, (at) => values[at] as number),
  };
}

function appendBlock(
  block: FeatureBlock,
  vocabulary: ReadonlyMap<string, number>,
  idf: Float32Array,
  tokens: readonly string[],
  indices: number[],
  values: number[],
): void {
  const counts = new Map<number, number>();
  for (const gram of blockGrams(block, tokens)) {
    const index = vocabulary.get(gram);
    if (index !== undefined) counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  let norm = 0;
  const start = values.length;
  for (const [index, count] of counts) {
    const value = (1 + Math.log(count)) * (idf[index] as number);
    indices.push(index);
    values.push(value);
    norm += value * value;
  }
  if (norm === 0) return;
  const scale = block.weight / Math.sqrt(norm);
  for (let at = start; at < values.length; at += 1) values[at] = (values[at] as number) * scale;
}
