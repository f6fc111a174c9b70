/**
 * The local knowledge index: the passages of the project's documents in a BM25 full-text index
 * (minisearch). Built by `parley train`, kept in the model archive as `knowledge.json`, loaded at
 * start-up.
 */
import MiniSearch from 'minisearch';
import type { AsPlainObject, SearchResult } from 'minisearch';
import type { KnowledgeChunk } from './chunks.js';
import { hasStopWords, queryTerms, termProcessor, tokenize } from './terms.js';

export const KNOWLEDGE_FORMAT_VERSION = 1;

/** `knowledge.json` of a model archive. */
export interface KnowledgeJson {
  readonly version: typeof KNOWLEDGE_FORMAT_VERSION;
  /** the language the terms were processed for (config.yml `language`) */
  readonly language: string;
  /** the folder the documents came from, as configured */
  readonly source: string;
  readonly chunks: readonly KnowledgeChunk[];
  /** the serialised minisearch index over `chunks` */
  readonly index: AsPlainObject;
}

export interface KnowledgeHit {
  readonly chunk: KnowledgeChunk;
  /** BM25 score (higher is better; not comparable across questions) */
  readonly score: number;
  /** the share of the question's words the passage contains, 0..1 */
  readonly coverage: number;
}

export interface KnowledgeSearchOptions {
  /** at most this many passages (default 4, the number Rasa's retriever returns) */
  readonly limit?: number;
  /** the share of the question's words a passage must contain; default: minimumMatches() */
  readonly threshold?: number;
}

export const DEFAULT_PASSAGES = 4;

export class KnowledgeIndex {
  readonly chunks: readonly KnowledgeChunk[];
  readonly language: string;
  readonly source: string;
  private readonly index: MiniSearch<KnowledgeChunk>;
  private readonly process: (token: string) => string | null;
  /** without a stop-word list: the terms in more than half of the passages, which relevance ignores */
  private readonly common: ReadonlySet<string>;

  private constructor(options: {
    chunks: readonly KnowledgeChunk[];
    language: string;
    source: string;
    index: MiniSearch<KnowledgeChunk>;
  }) {
    this.chunks = options.chunks;
    this.language = options.language;
    this.source = options.source;
    this.index = options.index;
    this.process = termProcessor(options.language);
    this.common = hasStopWords(options.language) ? new Set() : commonTerms(options.chunks, this.process);
  }

  static build(
    chunks: readonly KnowledgeChunk[],
    options: { language: string; source: string },
  ): KnowledgeIndex {
    const index = new MiniSearch<KnowledgeChunk>(indexOptions(options.language));
    index.addAll([...chunks]);
    return new KnowledgeIndex({ ...options, chunks, index });
  }

  /** Throws an Error when the JSON is not a knowledge index this Parley reads. */
  static fromJson(json: KnowledgeJson): KnowledgeIndex {
    if (json.version !== KNOWLEDGE_FORMAT_VERSION || !Array.isArray(json.chunks))
      throw new Error(`knowledge index format ${JSON.stringify(json.version)} is not supported`);
    const index = MiniSearch.loadJSON<KnowledgeChunk>(
      JSON.stringify(json.index),
      indexOptions(json.language),
    );
    return new KnowledgeIndex({ chunks: json.chunks, language: json.language, source: json.source, index });
  }

  toJson(): KnowledgeJson {
    return {
      version: KNOWLEDGE_FORMAT_VERSION,
      language: this.language,
      source: this.source,
      chunks: this.chunks,
      index: this.index.toJSON(),
    };
  }

  /** The relevant passages for a question, best first; none when no passage shares enough of its words. */
  search(question: string, options: KnowledgeSearchOptions = {}): KnowledgeHit[] {
    const terms = queryTerms(question, this.process);
    if (terms.length === 0) return [];
    const judged = this.judgedTerms(terms);
    const needed = options.threshold
      ? Math.max(1, Math.ceil(judged.size * Math.min(1, options.threshold) - 1e-9))
      : minimumMatches(judged.size);
    return this.index
      .search(terms.join(' '), { combineWith: 'OR' })
      .flatMap((result) => this.hit(result, judged, needed))
      .slice(0, options.limit ?? DEFAULT_PASSAGES);
  }

  /** The question's terms relevance counts: all but the common ones (unless all of them are common). */
  private judgedTerms(terms: readonly string[]): ReadonlySet<string> {
    const distinctive = terms.filter((term) => !this.common.has(term));
    return new Set(distinctive.length > 0 ? distinctive : terms);
  }

  private hit(result: SearchResult, judged: ReadonlySet<string>, needed: number): KnowledgeHit[] {
    const chunk = this.chunks[Number(result.id)];
    const matched = new Set(result.queryTerms.filter((term) => judged.has(term))).size;
    if (!chunk || matched < needed) return [];
    return [{ chunk, score: result.score, coverage: matched / judged.size }];
  }
}

/**
 * How many of a question's words a passage must contain to count as relevant: one of one or two, two of
 * three to five, a third of longer questions. A passage sharing a single common word ("take") with a
 * three-word question is not an answer to it.
 */
export function minimumMatches(termCount: number): number {
  if (termCount <= 2) return 1;
  if (termCount <= 5) return 2;
  return Math.ceil(termCount / 3);
}

/** A knowledge base this small has too few passages to tell a function word by its frequency. */
const COMMON_TERMS_MIN_PASSAGES = 8;

/** Terms found in more than half of the passages: the function words of a language without a list. */
function commonTerms(
  chunks: readonly KnowledgeChunk[],
  process: (token: string) => string | null,
): Set<string> {
  if (chunks.length < COMMON_TERMS_MIN_PASSAGES) return new Set();
  const frequency = new Map<string, number>();
  for (const chunk of chunks)
    for (const term of queryTerms(`${chunk.question ?? ''} ${chunk.text}`, process))
      frequency.set(term, (frequency.get(term) ?? 0) + 1);
  return new Set([...frequency].filter(([, count]) => count > chunks.length / 2).map(([term]) => term));
}

function indexOptions(language: string) {
  const process = termProcessor(language);
  return {
    idField: 'id',
    fields: ['question', 'text'],
    tokenize,
    processTerm: (term: string) => process(term),
    searchOptions: {
      boost: { question: 2 },
      // the question was processed already: its terms are index terms
      processTerm: (term: string) => term,
      prefix: (term: string) => term.length >= 4,
      fuzzy: (term: string) => (term.length >= 6 ? 0.2 : false),
    },
  };
}
