import { ROUTE_TO_CALM_SLOT } from '../../../core/coexistence.js';
import { intentEntries, llmEntries, ROUTER_NAMES } from '../../../core/coexistence-config.js';
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

function configPosition(context: RuleContext, path: readonly (string | number)[]): SourceRef | undefined {
  const section = context.project.raw.config;
  return section ? positionOf(section.file, path, true) : undefined;
}
