import { actionCancelFlow, actionCleanStack } from './cancel-flow.js';
import { actionClarifyFlows } from './clarify-flows.js';
import {
  actionAgentRequestUserInput,
  actionDeactivateLoop,
  actionRestart,
  actionSendText,
} from './conversation.js';
import { actionCorrectFlowSlot } from './correct-flow-slot.js';
import { actionBlockDigression, actionContinueDigression } from './digressions.js';
import {
  actionBack,
  actionDefaultAskAffirmation,
  actionDefaultAskRephrase,
  actionDefaultFallback,
} from './fallback.js';
import { actionCancelInterruptedFlows, actionContinueInterruptedFlow } from './interrupted-flows.js';
import { actionRepeatBotMessages } from './repeat-bot-messages.js';
import { actionResetRouting } from './reset-routing.js';
import { actionRunSlotRejections } from './run-slot-rejections.js';
import { actionHangup, actionTriggerChitchat, actionTriggerSearch, noEffects } from './simple.js';
import { actionRevertFallbackEvents, actionTwoStageFallback } from './two-stage-fallback.js';
import type { BuiltInAction, HistoryBuiltInAction } from './types.js';

export type {
  ActionEffect,
  BuiltInAction,
  BuiltInInput,
  HistoryBuiltInAction,
  RuntimeBuiltInAction,
} from './types.js';

/**
 * The built-in actions that are pure functions of the tracker. action_session_start is the runtime's
 * (it needs the session configuration and the channel's metadata).
 */
export const PURE_BUILT_IN_ACTIONS: ReadonlyMap<string, BuiltInAction> = new Map([
  ['action_listen', noEffects],
  ['action_run_slot_rejections', actionRunSlotRejections],
  ['action_cancel_flow', actionCancelFlow],
  ['action_clean_stack', actionCleanStack],
  ['action_correct_flow_slot', actionCorrectFlowSlot],
  ['action_clarify_flows', actionClarifyFlows],
  ['action_continue_interrupted_flow', actionContinueInterruptedFlow],
  ['action_cancel_interrupted_flows', actionCancelInterruptedFlows],
  ['action_repeat_bot_messages', actionRepeatBotMessages],
  ['action_restart', actionRestart],
  ['action_hangup', actionHangup],
  ['action_trigger_search', actionTriggerSearch],
  ['action_trigger_chitchat', actionTriggerChitchat],
  // a marker for handoff analytics in Rasa; it changes nothing in the conversation
  ['action_handoff_metric', noEffects],
  // Rasa runs slot mappings here for NLU-based dialogue; Parley's NLU fills slots through commands
  ['action_extract_slots', noEffects],
  // Rasa's marker for UnexpecTEDIntentPolicy predictions: no events
  ['action_unlikely_intent', noEffects],
  ['action_deactivate_loop', actionDeactivateLoop],
  ['action_back', actionBack],
  ['action_default_fallback', actionDefaultFallback],
  ['action_default_ask_rephrase', actionDefaultAskRephrase],
  ['action_default_ask_affirmation', actionDefaultAskAffirmation],
  ['action_send_text', actionSendText],
  ['action_agent_request_user_input', actionAgentRequestUserInput],
  ['action_block_digression', actionBlockDigression],
  ['action_continue_digression', actionContinueDigression],
  ['action_reset_routing', actionResetRouting],
]);

/** Built-ins that read the conversation's history; the runner loads it for them only. */
export const HISTORY_BUILT_IN_ACTIONS: ReadonlyMap<string, HistoryBuiltInAction> = new Map([
  ['action_two_stage_fallback', actionTwoStageFallback],
  ['action_revert_fallback_events', actionRevertFallbackEvents],
]);

/** Built-ins the runtime provides itself: they need what the core does not have. */
export const RUNTIME_BUILT_IN_ACTIONS: readonly string[] = ['action_session_start'];

/** Every built-in action name that runs. */
export function runnableBuiltInActions(): string[] {
  return [...PURE_BUILT_IN_ACTIONS.keys(), ...HISTORY_BUILT_IN_ACTIONS.keys(), ...RUNTIME_BUILT_IN_ACTIONS];
}

export function isRunnableBuiltInAction(name: string): boolean {
  return (
    PURE_BUILT_IN_ACTIONS.has(name) ||
    HISTORY_BUILT_IN_ACTIONS.has(name) ||
    RUNTIME_BUILT_IN_ACTIONS.includes(name)
  );
}
