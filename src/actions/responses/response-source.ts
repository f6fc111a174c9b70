import type { UnstampedEvent } from '../../core/events/types.js';
import type { ActionRequest } from '../../core/ports.js';

/** Where the bot's responses come from: the domain's templates, or an NLG server. */
export interface ResponseSource {
  /** the `bot` events uttering response `name` (empty: nothing to say) */
  utter(
    name: string,
    request: ActionRequest,
    kwargs?: Readonly<Record<string, unknown>>,
  ): Promise<UnstampedEvent[]>;
}
