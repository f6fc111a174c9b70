import { parseEvents } from '../../core/events/parse-event.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import type { Event } from '../../core/events/types.js';
import type { Frame } from '../../core/stack/frames.js';
import type { ActionResponse } from '../action-server/action-result.js';
import type { CustomActionCall, CustomActionResult, CustomActionSource } from './source.js';

/** What an in-process action sees of the conversation (a read-only view, like rasa-sdk's Tracker). */
export interface ActionContext {
  readonly conversationId: string;
  readonly slots: Readonly<Record<string, unknown>>;
  readonly latestMessage: { readonly text: string | null; readonly intent: string | null } | undefined;
  readonly stack: readonly Frame[];
  /** every event of the conversation so far (read from the store on demand) */
  events(): Promise<readonly Event[]>;
  slot(name: string): unknown;
}

/** Events as rasa-sdk writes them (`{event: 'slot', name, value}`; timestamps optional), and messages. */
export interface ActionResult {
  readonly events?: readonly Readonly<Record<string, unknown>>[];
  readonly responses?: readonly ActionResponse[];
}

export interface InProcessAction {
  readonly name: string;
  run(context: ActionContext): ActionResult | Promise<ActionResult>;
}

/** Declares a custom action for an assistant's `actions/` folder. */
export function defineAction(action: InProcessAction): InProcessAction {
  return action;
}

/** Custom actions written in TypeScript or JavaScript and run inside the Parley process. */
export class InProcessActionSource implements CustomActionSource {
  readonly name = 'in-process actions';
  private readonly actions: ReadonlyMap<string, InProcessAction>;
  private readonly clock: () => number;

  constructor(options: { actions: readonly InProcessAction[]; clock: () => number }) {
    this.actions = new Map(options.actions.map((action) => [action.name, action]));
    this.clock = options.clock;
  }

  has(actionName: string): boolean {
    return this.actions.has(actionName);
  }

  async run(call: CustomActionCall): Promise<CustomActionResult> {
    const action = this.actions.get(call.actionName);
    if (!action) throw new Error(`There is no in-process action '${call.actionName}'.`);
    const result = await action.run(actionContext(call.conversationId, call.state, () => call.allEvents()));
    const parsed = parseEvents(result.events ?? [], this.clock());
    if (!parsed.ok)
      throw new Error(
        `Action '${call.actionName}' returned invalid events: ${JSON.stringify(parsed.errors)}`,
      );
    return { events: parsed.events, responses: result.responses ?? [] };
  }
}

function actionContext(
  conversationId: string,
  state: TrackerState,
  events: () => Promise<readonly Event[]>,
): ActionContext {
  const latest = state.latestMessage;
  return {
    conversationId,
    slots: state.slots,
    latestMessage: latest ? { text: latest.text, intent: latest.parse_data.intent.name } : undefined,
    stack: state.stack,
    events,
    slot: (name) => state.slots[name] ?? null,
  };
}
