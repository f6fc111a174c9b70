/**
 * AgentSkills from the loaded flows (Rasa 3.17: "user flows become AgentSkill entries; pattern flows
 * are included when include_conversation_repair is true"). Flows a caller can never start (guard
 * `if: False`, reachable only through `call`/`link`) are left out; flows with any other guard are listed
 * with the tag `guarded`, as they may refuse to start at run time.
 */
import type { Assistant } from '../../core/assistant.js';
import type { Flow } from '../../core/flows/types.js';
import { isPatternId } from '../../core/flows/types.js';
import type { V03Skill } from './types.js';

/**
 * The patterns a caller's message can start on purpose: conversation repair. The other patterns are
 * the engine's own machinery (collecting a slot, session start, internal errors, ...): listing them as
 * skills would tell an orchestrator nothing it can use.
 */
export const REPAIR_SKILL_PATTERNS: readonly string[] = [
  'pattern_cancel_flow',
  'pattern_chitchat',
  'pattern_clarification',
  'pattern_correction',
  'pattern_human_handoff',
  'pattern_repeat_bot_messages',
  'pattern_restart',
  'pattern_skip_question',
];

/** at most this many examples per skill, from the training examples of its NLU trigger intents */
export const MAX_SKILL_EXAMPLES = 5;

export interface SkillOptions {
  readonly includeConversationRepair: boolean;
}

export function skillsFromFlows(assistant: Assistant, options: SkillOptions): V03Skill[] {
  const startable = assistant.flows.flows.filter((flow) => !neverStartable(flow));
  const user = startable.filter((flow) => !isPatternId(flow.id)).map((flow) => userSkill(flow, assistant));
  if (!options.includeConversationRepair) return user;
  const repair = REPAIR_SKILL_PATTERNS.map((id) => startable.find((flow) => flow.id === id))
    .filter((flow): flow is Flow => flow !== undefined)
    .map((flow) => repairSkill(flow, assistant));
  return [...user, ...repair];
}

/** A guard that is the constant false (or null): Rasa's way of saying "only via call or link". */
export function neverStartable(flow: Flow): boolean {
  const ast = flow.guard?.ast;
  return ast?.kind === 'constant' && ast.value !== true;
}

function userSkill(flow: Flow, assistant: Assistant): V03Skill {
  const guarded = flow.guard !== undefined && flow.guard.ast?.kind !== 'constant';
  return skill(flow, assistant, guarded ? ['flow', 'guarded'] : ['flow']);
}

function repairSkill(flow: Flow, assistant: Assistant): V03Skill {
  return skill(flow, assistant, ['pattern', 'conversation_repair']);
}

function skill(flow: Flow, assistant: Assistant, tags: string[]): V03Skill {
  const examples = triggerExamples(flow, assistant);
  return {
    id: flow.id,
    name: flow.name,
    // the loader requires descriptions of project flows; the name stands in for anything else
    description: flow.description.trim() === '' ? flow.name : flow.description.trim(),
    tags,
    ...(examples.length > 0 ? { examples } : {}),
  };
}

function triggerExamples(flow: Flow, assistant: Assistant): string[] {
  const intents = new Set(flow.nluTriggers.map((trigger) => trigger.intent));
  const examples = assistant.nlu.intents
    .filter((entry) => intents.has(entry.intent))
    .flatMap((entry) => entry.examples.map((example) => example.text.trim()))
    .filter((text) => text !== '');
  return [...new Set(examples)].slice(0, MAX_SKILL_EXAMPLES);
}
