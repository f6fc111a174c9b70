import { knowledgeConfigOf, SEARCH_POLICY, vectorStoreFallback } from '../../../core/knowledge-config.js';
import type { SourceRef } from '../../../core/errors.js';
import { knowledgeFolder } from '../../load/knowledge-documents.js';
import { positionOf } from '../../load/yaml-file.js';
import type { RuleContext, ValidationRule } from '../rule.js';

/**
 * The EnterpriseSearchPolicy: one warning that the vector store is replaced by the local keyword index,
 * and one when there are no documents to index (Rasa refuses to train then; Parley answers
 * `utter_no_knowledge_base`).
 */
export const knowledgeRule: ValidationRule = {
  name: 'knowledge',
  check(context) {
    const knowledge = knowledgeConfigOf(context.assistant.config);
    if (!knowledge) return;
    const where = policyPosition(context, ['vector_store']);
    const fallback = vectorStoreFallback(knowledge);
    context.report(fallback.code, where, fallback.message);
    const folder = knowledgeFolder(context.project.files.root, knowledge.source);
    if (folder.kind === 'documents') return;
    const problem =
      folder.kind === 'missing'
        ? 'does not exist'
        : folder.kind === 'not_a_folder'
          ? 'is not a folder'
          : 'holds no .txt documents';
    context.report(
      'KNOWLEDGE_DOCUMENTS_MISSING',
      policyPosition(context, ['vector_store', 'source']),
      `${SEARCH_POLICY}: the document folder ${knowledge.source} ${problem}; knowledge questions will be answered with utter_no_knowledge_base.`,
    );
  },
};

/** The policy's entry in config.yml (or the deepest part of `path` under it that is written). */
function policyPosition(context: RuleContext, path: readonly string[]): SourceRef | undefined {
  const section = context.project.raw.config;
  if (!section) return undefined;
  const index = context.assistant.config.policies.findIndex((policy) => policy.name === SEARCH_POLICY);
  return positionOf(section.file, ['policies', index, ...path], true);
}
