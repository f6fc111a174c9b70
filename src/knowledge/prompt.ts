/**
 * The prompt that asks the LLM to answer from the passages found (Rasa's EnterpriseSearchPolicy with
 * `use_generative_llm`). Its sections follow Rasa's default templates: the passages with their
 * metadata (the `source` file), the filled slots, the conversation, the instructions, and, when
 * enabled, how to cite sources (`[1]` in the text, a `Sources:` list after it) and the
 * `[NO_RAG_ANSWER]` marker of the relevancy check. The wording is Parley's own.
 */
import type { KnowledgeHit } from './knowledge-index.js';

export interface PromptSlot {
  readonly name: string;
  readonly value: string;
  readonly type: string;
}

export interface KnowledgePromptInputs {
  readonly hits: readonly KnowledgeHit[];
  readonly slots: readonly PromptSlot[];
  /** `USER: ...` / `AI: ...` lines, oldest first */
  readonly transcript: string;
  readonly citationEnabled: boolean;
  readonly checkRelevancy: boolean;
}

export const NO_RAG_ANSWER = '[NO_RAG_ANSWER]';

export function knowledgePrompt(inputs: KnowledgePromptInputs): string {
  return [
    opening(inputs.checkRelevancy),
    documents(inputs.hits),
    inputs.citationEnabled ? CITATIONS : '',
    slots(inputs.slots),
    `### Current Conversation\nThe conversation so far; the question is in the user's last message:\n${inputs.transcript}`,
    closing(inputs.citationEnabled),
  ]
    .filter((section) => section.length > 0)
    .join('\n\n');
}

function opening(checkRelevancy: boolean): string {
  return checkRelevancy
    ? 'Answer the question in the conversation below using only the documents and the conversation. ' +
        'Answer only when the documents clearly support the answer; when they do not, reply with exactly ' +
        `${NO_RAG_ANSWER} and nothing else.`
    : 'Answer the question in the conversation below using only the documents and the conversation. ' +
        'When they do not contain the answer, tell the user that you do not know.';
}

function documents(hits: readonly KnowledgeHit[]): string {
  const listed = hits.map((hit) => `* {'source': '${hit.chunk.source}'}\n${hit.chunk.text}`);
  return `### Relevant Documents\nThe documents to answer from:\n\n${listed.join('\n\n')}`;
}

const CITATIONS = [
  '### Citing Sources',
  "Cite the documents you use by their `source` metadata, never by the conversation. Number the sources in the order you first cite them, starting at [1]; a source cited again keeps its number. Put the number in brackets at the end of the sentence it supports, without writing 'according to'.",
  'After the answer, on the next line, write `Sources:` followed by one line per cited source: its number in brackets and its source, like this:',
  'Returns are free within 30 days. [1]\nSources:\n[1] docs/returns.txt',
].join('\n');

function slots(filled: readonly PromptSlot[]): string {
  if (filled.length === 0) return '';
  const lines = filled.map((slot) => `- name: ${slot.name}, value: ${slot.value}, type: ${slot.type}`);
  return `### Slots or Variables\nValues known in this conversation, which may help answer:\n${lines.join('\n')}`;
}

function closing(citationEnabled: boolean): string {
  return [
    '## Answering the Question',
    "Answer the user's last message from the sections above. Do not invent or assume anything they do not say, do not mention documents, a context or this prompt (the user sees none of them), and keep the answer to two or three sentences.",
    citationEnabled ? 'Cite no source when the documents do not hold the answer.' : '',
    'Your answer:',
  ]
    .filter((line) => line.length > 0)
    .join('\n');
}
