/**
 * Which flows the prompt offers. Rasa embeds flow descriptions and keeps the flows closest to the last
 * user turns; without an embedding model we rank by lexical similarity (TF-IDF cosine between the
 * recent user messages and each flow's id, name and description), which needs no download and is
 * deterministic. Flows marked `always_include_in_prompt` and the flows on the stack are always kept.
 */
import type { EngineContext } from '../../core/engine-context.js';
import type { SlotValues } from '../../core/events/tracker-state.js';
import { conditionHolds } from '../../core/executor/conditions.js';
import type { Flow } from '../../core/flows/types.js';
import { isPatternId } from '../../core/flows/types.js';
import type { Stack } from '../../core/stack/frames.js';
import { topUserFrame } from '../../core/stack/operations.js';

/** Rasa's `flow_retrieval` settings of an LLM command generator. */
export interface FlowRetrievalOptions {
  /** false: every startable flow is offered */
  readonly active: boolean;
  /** with more startable flows than this, only this many (the most similar) are offered */
  readonly numFlows: number;
  /** how many of the latest user messages (the new one included) the similarity looks at */
  readonly turnsToEmbed: number;
}

export const DEFAULT_FLOW_RETRIEVAL: FlowRetrievalOptions = { active: true, numFlows: 20, turnsToEmbed: 1 };

/** User flows whose guard holds now (evaluated against the slots, with an empty context). */
export function startableFlows(engine: EngineContext, slots: SlotValues): Flow[] {
  return engine.flows.flows.filter(
    (flow) => !isPatternId(flow.id) && (!flow.guard || conditionHolds(flow.guard, { slots, context: {} })),
  );
}

/** The flows the user is in: the top user flow, and the flow it called if a call is running. */
export function activeFlowIds(stack: Stack): string[] {
  const ids = [
    topUserFrame(stack)?.flow_id,
    topUserFrame(stack, { includeCallFrames: true })?.flow_id,
  ].filter((id): id is string => id !== undefined);
  return [...new Set(ids)];
}

export interface FlowSelection {
  /** the startable flows */
  readonly candidates: readonly Flow[];
  /** every flow of the assistant, to add active flows whose guard no longer holds */
  readonly allFlows: readonly Flow[];
  readonly activeFlowIds: readonly string[];
  /** the latest user messages, oldest first */
  readonly userMessages: readonly string[];
  readonly options: FlowRetrievalOptions;
}

/** The flows to put in the prompt, in the order the assistant defines them. */
export function selectFlows(selection: FlowSelection): Flow[] {
  const { candidates, options } = selection;
  const kept = new Set<string>();
  if (!options.active || candidates.length <= options.numFlows) {
    for (const flow of candidates) kept.add(flow.id);
  } else {
    const query = selection.userMessages.slice(-Math.max(1, options.turnsToEmbed)).join(' ');
    for (const { flow } of rankFlows(candidates, query).slice(0, Math.max(0, options.numFlows)))
      kept.add(flow.id);
    for (const flow of candidates) if (flow.alwaysIncludeInPrompt) kept.add(flow.id);
  }
  for (const id of selection.activeFlowIds) if (!isPatternId(id)) kept.add(id);
  return selection.allFlows.filter((flow) => kept.has(flow.id));
}

/** The flows by TF-IDF cosine similarity to the query, most similar first (ties keep their order). */
export function rankFlows(flows: readonly Flow[], query: string): { flow: Flow; score: number }[] {
  const documents = flows.map((flow) => termCounts(`${flow.id} ${flow.name} ${flow.description}`));
  const idf = inverseDocumentFrequencies(documents);
  const queryVector = weigh(termCounts(query), idf);
  return flows
    .map((flow, index) => ({
      flow,
      index,
      score: cosine(queryVector, weigh(documents[index] as Map<string, number>, idf)),
    }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ flow, score }) => ({ flow, score }));
}

/** Lower-cased words (ids split at `_` and `-`), with a plural `s` dropped so "payments" meets "payment". */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 1)
    .map((token) =>
      token.length > 3 && token.endsWith('s') && !token.endsWith('ss') ? token.slice(0, -1) : token,
    );
}

function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokenize(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/** Smoothed IDF, as scikit-learn computes it: ln((1 + n) / (1 + df)) + 1. */
function inverseDocumentFrequencies(documents: readonly Map<string, number>[]): Map<string, number> {
  const frequency = new Map<string, number>();
  for (const document of documents)
    for (const term of document.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [term, count] of frequency) idf.set(term, Math.log((1 + documents.length) / (1 + count)) + 1);
  return idf;
}

function weigh(counts: Map<string, number>, idf: Map<string, number>): Map<string, number> {
  const vector = new Map<string, number>();
  for (const [term, count] of counts) {
    const weight = idf.get(term);
    if (weight !== undefined) vector.set(term, count * weight);
  }
  return vector;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  for (const [term, weight] of a) dot += weight * (b.get(term) ?? 0);
  const norm = Math.sqrt(sumOfSquares(a) * sumOfSquares(b));
  return norm === 0 ? 0 : dot / norm;
}

function sumOfSquares(vector: Map<string, number>): number {
  let sum = 0;
  for (const weight of vector.values()) sum += weight * weight;
  return sum;
}
