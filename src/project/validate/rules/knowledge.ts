import { knowledgeConfigOf, SEARCH_POLICY, vectorStoreFallback } from '../../../core/knowledge-config.js';
import type { SourceRef } from '../../../core/errors.js';
import type { Flow } from '../../../core/flows/types.js';
import { knowledgeFolder } from '../../load/knowledge-documents.js';
import { positionOf } from '../../load/yaml-file.js';
import type { RuleContext, ValidationRule } from '../rule.js';

/**
 * The EnterpriseSearchPolicy: one warning that the vector store is replaced by the local keyword index,
 * one when pattern_search never runs the search, and one when there are no documents to index (Rasa
 * refuses to train then; Parley answers `utter_no_knowledge_base`).
 */
export const knowledgeRule: ValidationRule = {
  name: 'knowledge',
  check(context) {
    const knowledge = knowledgeConfigOf(context.assistant.config);
    if (!knowledge) return;
    const where = policyPosition(context, ['vector_store']);
    const fallback = vectorStoreFallback(knowledge);
    context.report(fallback.code, where, fallback.message);
    reportUntriggeredSearch(context, policyPosition(context, []));
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

const SEARCH_PATTERN = 'pattern_search';
const SEARCH_ACTION = 'action_trigger_search';

/**
 * The policy answers only when pattern_search runs `action_trigger_search`. Rasa's default pattern only
 * says `utter_no_knowledge_base`, so a project that lists the policy without overriding the pattern (or
 * with an override that never searches) gets no knowledge answers, in Rasa as in Parley: say so.
 */
function reportUntriggeredSearch(context: RuleContext, policy: SourceRef | undefined): void {
  const flows = context.assistant.flows;
  const pattern = flows.get(SEARCH_PATTERN);
  if (!pattern || runsAction(pattern, SEARCH_ACTION, (id) => flows.get(id))) return;
  const which = pattern.isDefault
    ? "Rasa's default pattern_search, which only utters utter_no_knowledge_base,"
    : 'the pattern_search of the project';
  context.report(
    'KNOWLEDGE_SEARCH_NOT_TRIGGERED',
    pattern.isDefault ? policy : (pattern.source ?? policy),
    `${SEARCH_POLICY} is configured, but ${which} never runs ${SEARCH_ACTION}: knowledge questions get no answer from the documents (Rasa behaves the same).`,
    pattern.isDefault ? {} : { flowId: SEARCH_PATTERN },
  );
}

/** Whether the flow, or a flow it calls or links to, has an action step running `action`. */
function runsAction(flow: Flow, action: string, flowOf: (id: string) => Flow | undefined): boolean {
  const seen = new Set<string>();
  const pending = [flow];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (seen.has(next.id)) continue;
    seen.add(next.id);
    for (const step of next.steps) {
      if (step.kind === 'action' && step.action === action) return true;
      const target = step.kind === 'call' ? step.call : step.kind === 'link' ? step.link : undefined;
      const found = target === undefined ? undefined : flowOf(target);
      if (found) pending.push(found);
    }
  }
  return false;
}
