/**
 * Rasa's coexistence of CALM and an NLU-based system in one assistant: the bool slot
 * `route_session_to_calm` (declared by the project) holds the routing of the current session. `true`:
 * CALM (flows) answers; `false`: the NLU-based policies (rules, stories) answer; unset: the router decides
 * on the next message.
 */
import type { Command } from './commands/types.js';
import type { Domain } from './domain/types.js';
import type { SlotValues } from './events/tracker-state.js';

export const ROUTE_TO_CALM_SLOT = 'route_session_to_calm';

/** Whether the assistant runs in coexistence (Rasa: the tracker has the routing slot). */
export function hasRoutingSlot(domain: Domain): boolean {
  return domain.slots.has(ROUTE_TO_CALM_SLOT);
}

/**
 * Rasa's policy rule in coexistence: flows answer only while the routing slot is `true`; the NLU-based
 * policies answer while it is `false` or unset. Without the slot, flows always answer.
 */
export function nluPoliciesAnswer(domain: Domain, slots: SlotValues): boolean {
  return hasRoutingSlot(domain) && slots[ROUTE_TO_CALM_SLOT] !== true;
}

/**
 * Rasa's `_handle_via_nlu_in_coexistence`: whether this message goes to the NLU-based system, so that
 * the CALM command generators are skipped. The slot decides when set; otherwise the router's SetSlot for
 * it, or its Noop (`noop`, an NLU turn that does not stick); otherwise CALM.
 */
export function messageGoesToNlu(
  domain: Domain,
  slots: SlotValues,
  router: { readonly commands: readonly Command[]; readonly noop: boolean },
): boolean {
  if (!hasRoutingSlot(domain)) return false;
  const value = slots[ROUTE_TO_CALM_SLOT];
  if (value !== null && value !== undefined) return value !== true;
  const set = router.commands.find(
    (command) => command.command === 'set slot' && command.name === ROUTE_TO_CALM_SLOT,
  );
  if (set?.command === 'set slot') return set.value !== true;
  return router.noop;
}

/** The SetSlot the router and the generators issue to fix the session's routing. */
export function routeTo(calm: boolean): Command {
  return { command: 'set slot', name: ROUTE_TO_CALM_SLOT, value: calm };
}
