import { ROUTE_TO_CALM_SLOT } from '../coexistence.js';
import type { BuiltInAction } from './types.js';
import { eventEffect } from './types.js';

/**
 * Rasa's action_reset_routing (coexistence): ends the routing session (slots other than the
 * `shared_for_coexistence` ones go back to their initial values, the stack empties) and unsets the
 * routing slot itself, to null and not to its initial value, so that the router decides on the next
 * message again.
 */
export const actionResetRouting: BuiltInAction = () => [
  eventEffect({ event: 'routing_session_ended' }),
  eventEffect({ event: 'slot', name: ROUTE_TO_CALM_SLOT, value: null }),
];
