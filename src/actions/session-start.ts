import type { Assistant } from '../core/assistant.js';
import type { ActionEffect } from '../core/built-ins/types.js';
import { eventEffect } from '../core/built-ins/types.js';
import type { TrackerState } from '../core/events/tracker-state.js';

/**
 * The built-in action_session_start: `session_started`, the slots carried over from the previous
 * session when the domain asks for it, then `action_listen`.
 */
export function sessionStartEffects(state: TrackerState, assistant: Assistant): ActionEffect[] {
  const config = assistant.domain.sessionConfig;
  const carried = config.carryOverSlotsToNewSession
    ? Object.entries(state.slots).filter(
        ([name, value]) => value !== null && value !== state.initialSlots[name],
      )
    : [];
  return [
    eventEffect({ event: 'session_started' }),
    // the slot events are carried with who filled them, as Rasa carries their metadata
    ...carried.map(([name, value]) => {
      const filledBy = state.slotFilledBy[name];
      return eventEffect({
        event: 'slot',
        name,
        value,
        ...(filledBy ? { metadata: { filled_by: filledBy } } : {}),
      });
    }),
    eventEffect({ event: 'action', name: 'action_listen' }),
  ];
}
