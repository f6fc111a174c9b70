import { AppError } from '../../core/errors.js';
import { trackerToJson } from '../../core/events/tracker-json.js';
import type { BotData, UnstampedEvent } from '../../core/events/types.js';
import type { ActionRequest } from '../../core/ports.js';
import type { ResponseSource } from '../responses/response-source.js';
import type { NlgEndpoint } from './nlg-endpoint.js';

/**
 * Responses from an NLG server (Rasa's protocol): one POST per response with its name, the arguments,
 * the tracker (`current_state` with all events) and the output channel; the answer is the message.
 * An empty answer says nothing; an unreachable server or an invalid answer fails the action, which the
 * runtime turns into pattern_internal_error.
 */
export class NlgServerResponses implements ResponseSource {
  private readonly endpoint: NlgEndpoint;
  private readonly fetch: typeof fetch;

  constructor(options: { endpoint: NlgEndpoint; fetch?: typeof fetch }) {
    this.endpoint = options.endpoint;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async utter(
    name: string,
    request: ActionRequest,
    kwargs: Readonly<Record<string, unknown>> = {},
  ): Promise<UnstampedEvent[]> {
    const body = {
      response: name,
      template: name,
      id: null,
      arguments: kwargs,
      tracker: trackerToJson(request.state, await request.allEvents(), { verbosity: 'ALL' }),
      channel: { name: request.channel ?? 'collector' },
    };
    const answer = await this.post(name, body);
    if (answer === null) return [];
    return [
      { event: 'bot', text: answer.text ?? null, data: dataOf(answer), metadata: { utter_action: name } },
    ];
  }

  private async post(name: string, body: unknown): Promise<NlgMessage | null> {
    const url = new URL(this.endpoint.url);
    for (const [key, value] of Object.entries(this.endpoint.params)) url.searchParams.set(key, value);
    let response: Response;
    try {
      response = await this.fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...this.endpoint.headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.endpoint.timeoutSeconds * 1000),
      });
    } catch (error) {
      throw new AppError({
        code: 'NLG_UNREACHABLE',
        message: `The NLG server at ${this.endpoint.url} did not answer for '${name}': ${String(error)}`,
        cause: error,
      });
    }
    const text = await response.text();
    if (!response.ok)
      throw new AppError({
        code: 'NLG_FAILED',
        message: `The NLG server answered ${response.status} for '${name}': ${text.slice(0, 200)}`,
      });
    return parseNlgAnswer(name, text);
  }
}

interface NlgMessage {
  readonly text?: string | null;
  readonly buttons?: readonly unknown[] | null;
  readonly elements?: readonly unknown[] | null;
  readonly attachment?: unknown;
  readonly image?: string | null;
  readonly custom?: unknown;
  readonly quick_replies?: readonly unknown[] | null;
}

const FIELD_CHECKS: Readonly<Record<string, (value: unknown) => boolean>> = {
  text: (value) => typeof value === 'string',
  buttons: Array.isArray,
  elements: Array.isArray,
  quick_replies: Array.isArray,
  attachment: (value) => typeof value === 'object',
  image: (value) => typeof value === 'string',
  custom: (value) => typeof value === 'object',
};

/** Rasa's response schema: each known field null or of its type; an empty body means no message. */
export function parseNlgAnswer(name: string, text: string): NlgMessage | null {
  if (text.trim() === '' || text.trim() === 'null') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const invalid = (why: string) =>
    new AppError({
      code: 'NLG_BAD_RESPONSE',
      message: `NLG web endpoint returned an invalid response for '${name}': ${why}.`,
    });
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalid('not a JSON object');
  for (const [key, check] of Object.entries(FIELD_CHECKS)) {
    const value = (parsed as Record<string, unknown>)[key];
    if (value !== undefined && value !== null && !check(value)) throw invalid(`'${key}' has the wrong type`);
  }
  return parsed as NlgMessage;
}

function dataOf(answer: NlgMessage): BotData {
  return {
    elements: answer.elements ?? null,
    quick_replies: answer.quick_replies ?? null,
    buttons: (answer.buttons as BotData['buttons']) ?? null,
    attachment: answer.attachment ?? null,
    image: answer.image ?? null,
    custom: answer.custom ?? null,
  };
}
