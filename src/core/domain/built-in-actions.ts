/**
 * Actions the engine provides without a domain declaration (Rasa's default actions). A project may
 * override any of them by declaring a custom action with the same name.
 */
export const BUILT_IN_ACTIONS: readonly string[] = [
  'action_listen',
  'action_restart',
  'action_session_start',
  'action_default_fallback',
  'action_deactivate_loop',
  'action_revert_fallback_events',
  'action_default_ask_affirmation',
  'action_default_ask_rephrase',
  'action_two_stage_fallback',
  'action_unlikely_intent',
  'action_back',
  'action_send_text',
  'action_extract_slots',
  'action_cancel_flow',
  'action_correct_flow_slot',
  'action_clarify_flows',
  'action_run_slot_rejections',
  'action_trigger_chitchat',
  'action_trigger_search',
  'action_hangup',
  'action_repeat_bot_messages',
  'action_continue_interrupted_flow',
  'action_cancel_interrupted_flows',
  'action_clean_stack',
  'action_handoff_metric',
  'action_block_digression',
  'action_continue_digression',
  'action_reset_routing',
  'action_agent_request_user_input',
];

export function isBuiltInAction(name: string): boolean {
  return BUILT_IN_ACTIONS.includes(name);
}
