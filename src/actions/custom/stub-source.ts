import { parseEvents } from '../../core/events/parse-event.js';
import type { ActionResponse } from '../action-server/action-result.js';
import type { CustomActionCall, CustomActionResult, CustomActionSource } from './source.js';

export interface ActionStub {
  readonly events: readonly unknown[];
  readonly responses: readonly unknown[];
}

/** Fixed results per action name: e2e `stub_custom_actions`, and the corpus stubs of our own tests. */
export class StubActionSource implements CustomActionSource {
  readonly name = 'stubs';
  private readonly stubs: ReadonlyMap<string, ActionStub>;
  private readonly clock: () => number;

  constructor(options: { stubs: ReadonlyMap<string, ActionStub>; clock: () => number }) {
    this.stubs = options.stubs;
    this.clock = options.clock;
  }

  has(actionName: string): boolean {
    return this.stubs.has(actionName);
  }

  async run(call: CustomActionCall): Promise<CustomActionResult> {
    const stub = this.stubs.get(call.actionName);
    const parsed = parseEvents(stub?.events ?? [], this.clock());
    if (!parsed.ok)
      throw new Error(
        `The stub of '${call.actionName}' has invalid events: ${JSON.stringify(parsed.errors)}`,
      );
    const responses = (stub?.responses ?? []).filter(
      (item): item is ActionResponse => typeof item === 'object' && item !== null,
    );
    return { events: parsed.events, responses };
  }
}
