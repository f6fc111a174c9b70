import { ROUTE_TO_CALM_SLOT } from '../../../core/coexistence.js';
import { intentEntries, llmEntries, ROUTER_NAMES } from '../../../core/coexistence-config.js';
import type { StoryStep } from '../../../core/dialogue/types.js';
import { BUILT_IN_ACTIONS } from '../../../core/domain/built-in-actions.js';
import type { SourceRef } from '../../../core/errors.js';
import { positionOf } from '../../load/yaml-file.js';
import type { RuleContext, ValidationRule } from '../rule.js';

/**
 * Coexistence (Rasa's CALM next to an NLU-based system): a router needs its entries and the domain's
 * bool routing slot, as Rasa refuses to run otherwise; domain forms are not run by Parley.
 */
export const coexistenceRule: ValidationRule = {
  name: 'coexistence',
  check(context) {
    checkRouter(context);
    checkForms(context);
    checkStoryNames(context);
  },
};

function checkRouter(context: RuleContext): void {
  const pipeline = context.assistant.config.pipeline;
  const index = pipeline.findIndex((c) => (ROUTER_NAMES as readonly string[]).includes(c.name));
  const router = pipeline[index];
  if (!router) return;
  const where = configPosition(context, ['pipeline', index]);
  const entries =
    router.name === 'IntentBasedRouter' ? intentEntries(router.options) : llmEntries(router.options);
  if (!entries.ok)
    for (const problem of entries.problems) context.report('COEXISTENCE_ROUTER_CONFIG', where, problem);
  const slot = context.assistant.domain.slots.get(ROUTE_TO_CALM_SLOT);
  if (slot?.type !== 'bool')
    context.report(
      'COEXISTENCE_ROUTING_SLOT',
      slot?.source ?? where,
      slot
        ? `The routing slot ${ROUTE_TO_CALM_SLOT} must be of type bool, not ${slot.type}.`
        : `${router.name} needs the bool slot ${ROUTE_TO_CALM_SLOT} in the domain.`,
    );
}

function checkForms(context: RuleContext): void {
  for (const section of context.project.raw.domain) {
    const forms = section.data['forms'];
    if (typeof forms !== 'object' || forms === null || Object.keys(forms).length === 0) continue;
    context.report(
      'FORMS_NOT_RUN',
      positionOf(section.file, ['forms'], true),
      `The domain declares forms (${Object.keys(forms).join(', ')}); Parley does not run forms, so stories and rules that activate them will not fill their slots.`,
    );
  }
}

/** Stories and rules name intents and actions of the domain (a typo would make a step never match). */
function checkStoryNames(context: RuleContext): void {
  const { dialogue, domain } = context.assistant;
  const items = [...dialogue.stories.map((story) => ({ ...story, condition: [] })), ...dialogue.rules];
  for (const item of items) {
    const steps = [...item.condition, ...item.steps];
    for (const name of unknownNames(steps, context, domain.intents))
      context.report(
        'STORY_UNKNOWN_NAME',
        item.source,
        `'${item.name}' names ${name}, which the domain does not declare.`,
      );
  }
}

function unknownNames(
  steps: readonly StoryStep[],
  context: RuleContext,
  intents: ReadonlyMap<string, unknown>,
): string[] {
  return steps.flatMap((step): string[] => {
    if (step.kind === 'or') return unknownNames(step.alternatives, context, intents);
    if (step.kind === 'intent' && !intents.has(step.intent)) return [`the intent '${step.intent}'`];
    if (step.kind === 'action' && !context.isKnownAction(step.action, BUILT_IN_ACTIONS))
      return [`the action '${step.action}'`];
    return [];
  });
}

function configPosition(context: RuleContext, path: readonly (string | number)[]): SourceRef | undefined {
  const section = context.project.raw.config;
  return section ? positionOf(section.file, path, true) : undefined;
}
