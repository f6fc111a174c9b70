/**
 * Rasa's IntentBasedRouter. While the routing slot is unset, the predicted intent decides: an intent of
 * `nlu_entry.sticky` (or no intent at all, or one nobody claims) routes the session to the NLU-based
 * system; one of `nlu_entry.non_sticky` hands only this message to it; one of `calm_entry.sticky`, or
 * one the NLU command adapter acts on (an nlu_trigger, a slot mapping of a flow), goes to CALM, whose
 * command generators then fix the routing. While the slot is set, the session stays where it is.
 */
import { ROUTE_TO_CALM_SLOT, routeTo } from '../../core/coexistence.js';
import { nluAdapterCommands } from './nlu-adapter.js';
import { NLU_THIS_TURN, TO_CALM } from './router.js';
import type { CoexistenceRouter, EntryConfig, RouteDecision, RouterInput } from './router.js';

const TO_NLU: RouteDecision = { commands: [routeTo(false)], noop: false };

export class IntentBasedRouter implements CoexistenceRouter {
  readonly name = 'IntentBasedRouter';
  private readonly entries: EntryConfig<readonly string[]>;

  constructor(entries: EntryConfig<readonly string[]>) {
    this.entries = entries;
  }

  route(input: RouterInput): Promise<RouteDecision> {
    const routed = input.state.slots[ROUTE_TO_CALM_SLOT];
    if (routed === true) return Promise.resolve(TO_CALM);
    if (routed === false) return Promise.resolve(NLU_THIS_TURN);
    return Promise.resolve(this.byIntent(input));
  }

  private byIntent(input: RouterInput): RouteDecision {
    const intent = input.message.intent;
    if (intent === null || this.entries.nluSticky.includes(intent)) return TO_NLU;
    if (this.entries.nluNonSticky.includes(intent)) return NLU_THIS_TURN;
    if (this.entries.calmSticky.includes(intent)) return TO_CALM;
    const adapter = nluAdapterCommands(input.message, input.engine, input.state);
    return adapter.length > 0 ? TO_CALM : TO_NLU;
  }
}
