import { stackUpdateEvent } from '../events/stack-update.js';
import type { Stack } from '../stack/frames.js';
import type { ActionEffect } from './types.js';
import { eventEffect } from './types.js';

/** The `stack` event that turns one stack into another, as an action effect (none when equal). */
export function stackEffect(before: Stack, after: Stack): ActionEffect[] {
  const event = stackUpdateEvent(before, after);
  return event ? [eventEffect(event)] : [];
}
