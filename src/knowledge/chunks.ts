/**
 * Documents to passages. Plain text gives one passage per paragraph (a short one, such as a heading,
 * joins the next), so that the best passage is a readable answer on its own; a paragraph over 1000
 * characters is cut as Rasa cuts documents for its vector store (chunks of at most 1000 characters
 * with a 20-character overlap, at line, then word boundaries, like langchain's
 * RecursiveCharacterTextSplitter). A file of `Q:`/`A:` pairs (Rasa's extractive-search format) gives
 * one passage per pair.
 */
import type { KnowledgeDocument } from '../project/load/knowledge-documents.js';

export interface KnowledgeChunk {
  /** its position in the knowledge base, as the index's document id */
  readonly id: number;
  /** the file it comes from, relative to the project (`docs/shipping.txt`) */
  readonly source: string;
  /** the passage as the LLM sees it (a pair reads `Q: ...\nA: ...`) */
  readonly text: string;
  /** for a question-and-answer pair: the question and the answer given to the user */
  readonly question?: string;
  readonly answer?: string;
}

export const CHUNK_SIZE = 1000;
export const CHUNK_OVERLAP = 20;
const SEPARATORS = ['\n\n', '\n', ' ', ''];
/** a paragraph shorter than this (a heading, a one-liner) is joined to the paragraph after it */
export const SHORT_PARAGRAPH = 120;
const FAQ_PAIR = /^Q:\s*(?<question>.*?)\s*\n\s*A:\s*(?<answer>[\s\S]*)$/u;

export function chunkDocuments(documents: readonly KnowledgeDocument[]): KnowledgeChunk[] {
  const chunks: KnowledgeChunk[] = [];
  for (const document of documents) {
    const pairs = faqPairs(document.text);
    if (pairs)
      for (const pair of pairs)
        chunks.push({
          id: chunks.length,
          source: document.source,
          text: `Q: ${pair.question}\nA: ${pair.answer}`,
          ...pair,
        });
    else
      for (const text of passages(document.text))
        chunks.push({ id: chunks.length, source: document.source, text });
  }
  return chunks;
}

/** The pairs of a document whose every paragraph is `Q: question` + newline + `A: answer`; else undefined. */
export function faqPairs(text: string): { question: string; answer: string }[] | undefined {
  const blocks = text
    .replace(/\r\n?/gu, '\n')
    .split(/\n\s*\n/u)
    .map((block) => block.trim())
    .filter((block) => block.length > 0);
  const pairs = blocks.map((block) => FAQ_PAIR.exec(block)?.groups);
  if (pairs.length === 0 || pairs.some((groups) => groups === undefined)) return undefined;
  return pairs.flatMap((groups) => {
    const question = (groups?.['question'] ?? '').trim();
    const answer = (groups?.['answer'] ?? '').trim().replace(/\s*\n\s*/gu, ' ');
    return question && answer ? [{ question, answer }] : [];
  });
}

/**
 * The paragraphs of a text, short ones joined to the next by a line break (not a blank line: channels
 * send each blank-line-separated part of a text as a message of its own), long ones cut by splitText().
 */
export function passages(text: string): string[] {
  const paragraphs = text
    .replace(/\r\n?/gu, '\n')
    .split(/\n\s*\n/u)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0);
  const joined: string[] = [];
  let pending = '';
  for (const paragraph of paragraphs) {
    const text = pending ? `${pending}\n${paragraph}` : paragraph;
    if (text.length < SHORT_PARAGRAPH) pending = text;
    else {
      joined.push(text);
      pending = '';
    }
  }
  if (pending) joined.push(pending);
  return joined.flatMap((paragraph) => (paragraph.length > CHUNK_SIZE ? splitText(paragraph) : [paragraph]));
}

/** Chunks of at most `size` characters, neighbours sharing up to `overlap` characters. */
export function splitText(text: string, size = CHUNK_SIZE, overlap = CHUNK_OVERLAP): string[] {
  return split(text.replace(/\r\n?/gu, '\n'), SEPARATORS, size, overlap)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk.length > 0);
}

function split(text: string, separators: readonly string[], size: number, overlap: number): string[] {
  const index = separators.findIndex((separator) => separator === '' || text.includes(separator));
  const separator = separators[index] ?? '';
  const rest = separators.slice(index + 1);
  const pieces = (separator === '' ? [...text] : text.split(separator)).filter((piece) => piece !== '');
  const chunks: string[] = [];
  let small: string[] = [];
  for (const piece of pieces) {
    if (piece.length <= size) {
      small.push(piece);
      continue;
    }
    chunks.push(...merge(small, separator, size, overlap));
    small = [];
    chunks.push(...(rest.length > 0 ? split(piece, rest, size, overlap) : [piece]));
  }
  chunks.push(...merge(small, separator, size, overlap));
  return chunks;
}

/** Joins pieces into chunks up to `size`; each new chunk starts with the last pieces (≤ overlap) of the previous. */
function merge(pieces: readonly string[], separator: string, size: number, overlap: number): string[] {
  const chunks: string[] = [];
  const current: string[] = [];
  let length = 0;
  const joinedLength = (extra: number) => length + extra + (current.length > 0 ? separator.length : 0);
  for (const piece of pieces) {
    if (current.length > 0 && joinedLength(piece.length) > size) {
      chunks.push(current.join(separator));
      while (current.length > 0 && (length > overlap || joinedLength(piece.length) > size)) {
        const dropped = current.shift() ?? '';
        length -= dropped.length + (current.length > 0 ? separator.length : 0);
      }
    }
    length = joinedLength(piece.length);
    current.push(piece);
  }
  if (current.length > 0) chunks.push(current.join(separator));
  return chunks;
}
