import type { Diagnostic } from '../../core/errors.js';
import { loadProject } from '../load-project.js';
import type { LoadedProject, LoadOptions } from '../load-project.js';
import type { ProjectLocation } from '../load/discover.js';
import { RuleContext } from './rule.js';
import type { ValidationRule } from './rule.js';
import { actionStepsRule } from './rules/action-steps.js';
import { buttonsRule } from './rules/buttons.js';
import { channelsRule } from './rules/channels.js';
import { coexistenceRule } from './rules/coexistence.js';
import { collectStepsRule } from './rules/collect-steps.js';
import { compatibilityRule } from './rules/compatibility.js';
import { conditionsRule } from './rules/conditions.js';
import { customActionsRule } from './rules/custom-actions.js';
import { configRule } from './rules/config.js';
import { envReferencesRule } from './rules/env-references.js';
import { flowIdentityRule } from './rules/flow-identity.js';
import { flowReferencesRule } from './rules/flow-references.js';
import { knowledgeRule } from './rules/knowledge.js';
import { mcpToolCallsRule } from './rules/mcp-tool-calls.js';
import { nluDataRule } from './rules/nlu-data.js';
import { nluTriggersRule } from './rules/nlu-triggers.js';
import { persistedSlotsRule } from './rules/persisted-slots.js';
import { rasaVersionRule } from './rules/rasa-version.js';
import { responsesRule } from './rules/responses.js';
import { setSlotsStepsRule } from './rules/set-slots-steps.js';
import { slotsRule } from './rules/slots.js';
import { stepStructureRule } from './rules/step-structure.js';
import { dropEchoesOfUnreadFiles } from './unread-files.js';

export const VALIDATION_RULES: readonly ValidationRule[] = [
  configRule,
  flowIdentityRule,
  stepStructureRule,
  flowReferencesRule,
  mcpToolCallsRule,
  nluTriggersRule,
  persistedSlotsRule,
  collectStepsRule,
  setSlotsStepsRule,
  actionStepsRule,
  customActionsRule,
  conditionsRule,
  slotsRule,
  responsesRule,
  buttonsRule,
  nluDataRule,
  rasaVersionRule,
  compatibilityRule,
  envReferencesRule,
  knowledgeRule,
  coexistenceRule,
  channelsRule,
];

export interface ValidationResult {
  readonly project: LoadedProject;
  readonly diagnostics: readonly Diagnostic[];
  readonly hasErrors: boolean;
}

/** Loads an assistant and runs every validation rule; returns all diagnostics at once. */
export function validateProject(location: ProjectLocation, options: LoadOptions = {}): ValidationResult {
  const { project, diagnostics } = loadProject(location, options);
  const context = new RuleContext({ project, diagnostics });
  for (const rule of VALIDATION_RULES) rule.check(context);
  dropEchoesOfUnreadFiles(project, location, diagnostics);
  return { project, diagnostics: diagnostics.all, hasErrors: diagnostics.hasErrors };
}
