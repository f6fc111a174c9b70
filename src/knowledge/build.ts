import type { AssistantConfig } from '../core/assistant.js';
import { knowledgeConfigOf } from '../core/knowledge-config.js';
import { knowledgeFolder, readKnowledgeDocuments } from '../project/load/knowledge-documents.js';
import { chunkDocuments } from './chunks.js';
import { KnowledgeIndex } from './knowledge-index.js';

/** What `parley train` makes of a project's knowledge documents. */
export type KnowledgeBuild =
  /** config.yml lists no EnterpriseSearchPolicy: no knowledge base */
  | { readonly kind: 'none' }
  /** the policy is there, but its source folder has no documents */
  | { readonly kind: 'no_documents'; readonly folder: string; readonly note: string }
  | {
      readonly kind: 'index';
      readonly index: KnowledgeIndex;
      readonly documents: number;
      readonly note: string;
    };

/**
 * Reads the `.txt` documents of the EnterpriseSearchPolicy's source folder and indexes their passages.
 * Rasa stops the training when the folder is missing or empty; Parley trains without a knowledge base
 * (pattern_search then answers `utter_no_knowledge_base`), and `validate` warns about it.
 */
export function buildKnowledge(
  config: Pick<AssistantConfig, 'policies' | 'language'>,
  root: string,
): KnowledgeBuild {
  const knowledge = knowledgeConfigOf(config);
  if (!knowledge) return { kind: 'none' };
  const folder = knowledgeFolder(root, knowledge.source);
  if (folder.kind !== 'documents')
    return {
      kind: 'no_documents',
      folder: folder.folder,
      note: `Knowledge base: no .txt documents in ${knowledge.source}; knowledge questions get utter_no_knowledge_base.`,
    };
  const documents = readKnowledgeDocuments(root, folder.files);
  const chunks = chunkDocuments(documents);
  const index = KnowledgeIndex.build(chunks, { language: config.language, source: knowledge.source });
  return {
    kind: 'index',
    index,
    documents: documents.length,
    note: `Knowledge base: ${chunks.length} passages from ${documents.length} documents in ${knowledge.source}.`,
  };
}
