import { assertNever } from '../../core/errors.js';
import type { Flow, NextLink, Step } from '../../core/flows/types.js';
import { END_STEP } from '../../core/flows/types.js';

type JsonObject = Record<string, unknown>;

/**
 * The flows as Rasa's `FlowsList.as_json_list()` writes them (what the Inspector reads from `GET /flows`):
 * `id`, `steps` and the optional keys a flow sets. Steps come as one flat list in Rasa's depth-first
 * order, each with its resolved `next` (a step id, `END`, or `if`/`then` + `else` branches naming step
 * ids) — the same flow as Rasa's nested form, where a branch's steps sit inside its `then`.
 */
export function flowsToJson(flows: readonly Flow[]): JsonObject[] {
  return flows.map(flowToJson);
}

function flowToJson(flow: Flow): JsonObject {
  return {
    id: flow.id,
    steps: flow.steps.map(stepToJson),
    ...(flow.name ? { name: flow.name } : {}),
    ...(flow.description ? { description: flow.description } : {}),
    ...(flow.guard ? { if: flow.guard.text } : {}),
    always_include_in_prompt: flow.alwaysIncludeInPrompt,
    ...(flow.nluTriggers.length > 0
      ? {
          nlu_trigger: flow.nluTriggers.map((trigger) => ({
            intent: { name: trigger.intent, confidence_threshold: trigger.confidenceThreshold },
          })),
        }
      : {}),
    ...(flow.persistedSlots.length > 0 ? { persisted_slots: [...flow.persistedSlots] } : {}),
    run_pattern_completed: flow.runPatternCompleted,
    ...(Object.keys(flow.metadata).length > 0 ? { metadata: flow.metadata } : {}),
  };
}

function stepToJson(step: Step): JsonObject {
  return {
    id: step.id,
    next: nextToJson(step.next),
    ...(step.description ? { description: step.description } : {}),
    ...(Object.keys(step.metadata).length > 0 ? { metadata: step.metadata } : {}),
    ...stepKindJson(step),
  };
}

function stepKindJson(step: Step): JsonObject {
  switch (step.kind) {
    case 'action':
      return { action: step.action };
    case 'collect':
      return {
        collect: step.collect,
        utter: step.utter,
        collect_action: step.collectAction,
        ask_before_filling: step.askBeforeFilling,
        reset_after_flow_ends: step.resetAfterFlowEnds,
        rejections: step.rejections.map((rejection) => ({
          if: rejection.condition.text,
          utter: rejection.utter,
        })),
        force_slot_filling: step.forceSlotFilling,
      };
    case 'set_slots':
      return { set_slots: step.slots.map((slot) => ({ [slot.name]: slot.value })) };
    case 'link':
      return { link: step.link };
    case 'call':
      return { call: step.call };
    case 'noop':
      return { noop: true };
    default:
      return assertNever(step, 'step kind');
  }
}

function nextToJson(next: NextLink): unknown {
  switch (next.kind) {
    case 'end':
    case 'none':
      return END_STEP;
    case 'step':
      return next.target;
    case 'branches':
      return next.branches.map((branch) =>
        branch.condition ? { if: branch.condition.text, then: branch.target } : { else: branch.target },
      );
    default:
      return assertNever(next, 'next link');
  }
}
