import { actionCancelFlow, actionCleanStack } from './cancel-flow.js';
import { actionClarifyFlows } from './clarify-flows.js';
import { actionCorrectFlowSlot } from './correct-flow-slot.js';
import { actionCancelInterruptedFlows, actionContinueInterruptedFlow } from './interrupted-flows.js';
import { actionRepeatBotMessages } from './repeat-bot-messages.js';
import { actionResetRouting } from './reset-routing.js';
import { actionRunSlotRejections } from './run-slot-rejections.js';
import {
  actionHangup,
  actionRestart,
  actionTriggerChitchat,
  actionTriggerSearch,
  noEffects,
} from './simple.js';
import type { BuiltInAction } from './types.js';

export type { ActionEffect, BuiltInAction } from './types.js';

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
  ['action_handoff_metric', noEffects],
  ['action_extract_slots', noEffects],
  ['action_deactivate_loop', noEffects],
  ['action_back', noEffects],
  ['action_default_fallback', noEffects],
  ['action_send_text', noEffects],
  ['action_reset_routing', actionResetRouting],
]);
