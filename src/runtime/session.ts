import type { TrackerState } from '../core/events/tracker-state.js';
import type { SessionConfig } from '../core/domain/types.js';

/** Whether a message arriving now opens a new session (first message, or the old session expired). */
export function needsNewSession(state: TrackerState, config: SessionConfig, now: number): boolean {
  if (state.eventCount === 0) return true;
  if (config.sessionExpirationTime <= 0 || state.latestEventTime === undefined) return false;
  const expired = now - state.latestEventTime > config.sessionExpirationTime * 60;
  return expired && config.startSessionAfterExpiry;
}
