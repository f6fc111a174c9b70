/**
 * Rasa's LLMBasedRouter. While the routing slot is unset, an LLM reads the message and the three
 * descriptions and answers with one letter: A (CALM), B (the NLU-based system for this message only) or
 * C (the NLU-based system for the session). Anything else, or no answer, routes to the NLU-based system,
 * as in Rasa. While the slot is set, the session stays where it is and the LLM is not asked.
 */
import { ROUTE_TO_CALM_SLOT, routeTo } from '../../core/coexistence.js';
import type { LlmLogger } from '../llm/llm-command-generator.js';
import type { ChatCompletionClient } from '../llm/openai-client.js';
import { NLU_THIS_TURN, TO_CALM } from './router.js';
import type { CoexistenceRouter, EntryConfig, RouteDecision, RouterInput } from './router.js';

const TO_NLU: RouteDecision = { commands: [routeTo(false)], noop: false };

export interface LlmBasedRouterOptions {
  readonly entries: EntryConfig<string>;
  readonly client: ChatCompletionClient;
  readonly logger?: LlmLogger;
}

export class LlmBasedRouter implements CoexistenceRouter {
  readonly name = 'LLMBasedRouter';
  private readonly options: LlmBasedRouterOptions;

  constructor(options: LlmBasedRouterOptions) {
    this.options = options;
  }

  async route(input: RouterInput): Promise<RouteDecision> {
    const routed = input.state.slots[ROUTE_TO_CALM_SLOT];
    if (routed === true) return TO_CALM;
    if (routed === false) return NLU_THIS_TURN;
    const answer = await this.options.client.complete([
      { role: 'user', content: routerPrompt(this.options.entries, input.text) },
    ]);
    if (!answer.ok) {
      this.options.logger?.error(
        { component: this.name, code: answer.error.code, error: answer.error.message },
        'llm_based_router.llm_error',
      );
      return TO_NLU;
    }
    return decisionFor(answer.text, this.options.logger);
  }
}

/** Parley's wording of the router's question; the letters mean what they mean in Rasa's template. */
export function routerPrompt(entries: EntryConfig<string>, text: string): string {
  return [
    'Pick the assistant that should answer the user message below.',
    '',
    `Assistant A: ${entries.calmSticky}`,
    `Assistant B: ${entries.nluNonSticky}`,
    `Assistant C: ${entries.nluSticky}`,
    '',
    `User message: """${text}"""`,
    '',
    'Answer with the letter of that assistant only (A, B or C).',
  ].join('\n');
}

export function decisionFor(answer: string, logger?: LlmLogger): RouteDecision {
  const letter = answer.trim();
  if (letter === 'A') return TO_CALM;
  if (letter === 'B') return NLU_THIS_TURN;
  if (letter !== 'C')
    logger?.warn(
      { component: 'LLMBasedRouter', answer: answer.slice(0, 100) },
      'llm_based_router.invalid_answer',
    );
  return TO_NLU;
}
