import type { TrackerState } from '../../core/events/tracker-state.js';
import type { Event } from '../../core/events/types.js';
import type { ActionResponse } from '../action-server/action-result.js';

/** What a custom action returned: events, and messages for the bot to send (rasa-sdk's shape). */
export interface CustomActionResult {
  readonly events: readonly Event[];
  readonly responses: readonly ActionResponse[];
}

export interface CustomActionCall {
  readonly actionName: string;
  readonly conversationId: string;
  readonly state: TrackerState;
  allEvents(): Promise<readonly Event[]>;
  /** the tracker's `current_state` JSON, built on demand (it carries the whole event log) */
  tracker(): Promise<unknown>;
}

/** A place custom actions run: in-process TypeScript modules, an action server, e2e test stubs. */
export interface CustomActionSource {
  readonly name: string;
  has(actionName: string): boolean;
  run(call: CustomActionCall): Promise<CustomActionResult>;
}
