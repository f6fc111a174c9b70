import type { ActionServerClient } from '../action-server/client.js';
import type { CustomActionCall, CustomActionResult, CustomActionSource } from './source.js';

/** Every custom action not found elsewhere goes to the action server (Rasa SDK protocol). */
export class ActionServerSource implements CustomActionSource {
  readonly name = 'action server';
  private readonly client: ActionServerClient;

  constructor(options: { client: ActionServerClient }) {
    this.client = options.client;
  }

  has(): boolean {
    return true;
  }

  async run(call: CustomActionCall): Promise<CustomActionResult> {
    return this.client.run({
      actionName: call.actionName,
      senderId: call.conversationId,
      tracker: await call.tracker(),
    });
  }
}
