/**
 * A client for OpenAI's chat-completions API (and every server that speaks it: vLLM, Ollama, LiteLLM
 * proxies, LM Studio), over Node's global fetch. It never throws: the answer is the message text or an
 * LlmError with a stable code.
 */
import { LlmError } from './errors.js';
import type { LlmErrorCode } from './errors.js';

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export type ChatResult =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: LlmError };

/** What a command generator needs from an LLM: one completion for a list of messages. */
export interface ChatCompletionClient {
  complete(messages: readonly ChatMessage[]): Promise<ChatResult>;
}

export interface OpenAiClientOptions {
  /** the API root the paths hang off, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended */
  readonly apiBase: string;
  readonly model: string;
  /** sent as `Authorization: Bearer <key>` when set (or in `keyHeader`) */
  readonly apiKey?: string;
  /** the header carrying the key as it is, instead of `Authorization: Bearer` (Azure: `api-key`) */
  readonly keyHeader?: string;
  /** query parameters of every request (Azure: `api-version`) */
  readonly query?: Readonly<Record<string, string>>;
  /** seconds one request may take, answer included (default 7, Rasa's) */
  readonly timeoutSeconds?: number;
  /** default 0 */
  readonly temperature?: number;
  /** retries after a 408, 409, 429, 5xx or a network error (default 2); a timeout is not retried */
  readonly maxRetries?: number;
  /** the first retry waits this long, each further one twice as long (default 500 ms) */
  readonly retryDelayMs?: number;
  /** no wait is longer, whatever `Retry-After` says (default 8 s) */
  readonly maxRetryDelayMs?: number;
  /** extra request headers (e.g. for a proxy) */
  readonly headers?: Readonly<Record<string, string>>;
  /** extra request body fields (`max_tokens`, `top_p`, `seed`, ...) */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** defaults to the global fetch */
  readonly fetch?: typeof fetch;
  /** how a wait before a retry is spent; defaults to a timer (tests record the waits instead) */
  readonly sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_LLM_TIMEOUT_SECONDS = 7;
export const DEFAULT_LLM_MAX_RETRIES = 2;
const MAX_RESPONSE_CHARACTERS = 1_000_000;
const RETRYABLE_STATUS = new Set([408, 409, 429]);
const CONFIGURATION_STATUS = new Set([401, 403, 404]);

type Attempt =
  | { readonly kind: 'done'; readonly result: ChatResult }
  | { readonly kind: 'retry'; readonly error: LlmError; readonly retryAfterMs?: number };

export class OpenAiClient implements ChatCompletionClient {
  readonly url: string;
  private readonly options: OpenAiClientOptions;
  private readonly fetch: typeof fetch;
  private readonly headers: Readonly<Record<string, string>>;

  constructor(options: OpenAiClientOptions) {
    this.options = options;
    const query = new URLSearchParams(options.query ?? {}).toString();
    this.url = `${options.apiBase.replace(/\/+$/u, '')}/chat/completions${query ? `?${query}` : ''}`;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.headers = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      ...(options.apiKey
        ? options.keyHeader
          ? { [options.keyHeader]: options.apiKey }
          : { Authorization: `Bearer ${options.apiKey}` }
        : {}),
      ...options.headers,
    };
  }

  async complete(messages: readonly ChatMessage[]): Promise<ChatResult> {
    const body = JSON.stringify({
      ...this.options.extraBody,
      model: this.options.model,
      messages,
      temperature: this.options.temperature ?? 0,
    });
    const retries = Math.max(0, this.options.maxRetries ?? DEFAULT_LLM_MAX_RETRIES);
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.attempt(body, attempt);
      if (outcome.kind === 'done') return outcome.result;
      if (attempt > retries) return { ok: false, error: outcome.error };
      await (this.options.sleep ?? sleep)(this.delay(attempt, outcome.retryAfterMs));
    }
  }

  private async attempt(body: string, attempt: number): Promise<Attempt> {
    const timeoutSeconds = this.options.timeoutSeconds ?? DEFAULT_LLM_TIMEOUT_SECONDS;
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      const response = await this.fetch(this.url, {
        method: 'POST',
        headers: this.headers,
        body,
        signal: AbortSignal.timeout(timeoutSeconds * 1000),
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await response.text();
    } catch (cause) {
      if (isTimeout(cause)) {
        const message = `The LLM at '${this.url}' did not answer within ${timeoutSeconds} s.`;
        return { kind: 'done', result: this.failure('LLM_TIMEOUT', message, { attempt, cause }) };
      }
      const message = `Could not reach the LLM at '${this.url}': ${describe(cause)}.`;
      return { kind: 'retry', error: this.error('LLM_UNREACHABLE', message, { attempt, cause }) };
    }
    return this.read(status, text, retryAfter, attempt);
  }

  private read(status: number, text: string, retryAfter: string | null, attempt: number): Attempt {
    if (status >= 500 || RETRYABLE_STATUS.has(status)) {
      const message = `The LLM at '${this.url}' answered ${status}: ${excerpt(text)}`;
      const error = this.error('LLM_UNREACHABLE', message, { attempt, status });
      const retryAfterMs = retryAfterMilliseconds(retryAfter);
      return { kind: 'retry', error, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    }
    if (status >= 400) {
      const code = CONFIGURATION_STATUS.has(status) ? 'LLM_NOT_CONFIGURED' : 'LLM_BAD_RESPONSE';
      const hint =
        code === 'LLM_NOT_CONFIGURED' ? ' Check api_key, model and api_base of the model group.' : '';
      const message = `The LLM at '${this.url}' refused the request (${status}): ${excerpt(text)}.${hint}`;
      return { kind: 'done', result: this.failure(code, message, { attempt, status }) };
    }
    const content = messageContent(text);
    if (content === undefined) {
      const message = `The LLM at '${this.url}' sent no chat completion: ${excerpt(text)}`;
      return { kind: 'done', result: this.failure('LLM_BAD_RESPONSE', message, { attempt, status }) };
    }
    return { kind: 'done', result: { ok: true, text: content } };
  }

  private delay(attempt: number, retryAfterMs: number | undefined): number {
    const base = this.options.retryDelayMs ?? 500;
    const max = this.options.maxRetryDelayMs ?? 8000;
    return Math.min(max, Math.max(base * 2 ** (attempt - 1), retryAfterMs ?? 0));
  }

  private error(
    code: LlmErrorCode,
    message: string,
    more: { attempt: number; status?: number; cause?: unknown },
  ): LlmError {
    return new LlmError({
      code,
      message,
      url: this.url,
      attempts: more.attempt,
      ...(more.status === undefined ? {} : { status: more.status }),
      ...(more.cause === undefined ? {} : { cause: more.cause }),
    });
  }

  private failure(
    code: LlmErrorCode,
    message: string,
    more: { attempt: number; status?: number; cause?: unknown },
  ): ChatResult {
    return { ok: false, error: this.error(code, message, more) };
  }
}

/**
 * `choices[0].message.content` of a chat completion: a string, text parts joined, or '' for a message
 * without text (a refusal); undefined when the body is not a chat completion at all.
 */
export function messageContent(text: string): string | undefined {
  if (text.length > MAX_RESPONSE_CHARACTERS) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const choices = isRecord(body) ? body['choices'] : undefined;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = isRecord(first) ? first['message'] : undefined;
  if (!isRecord(message)) return undefined;
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) return undefined;
  return content
    .map((part: unknown) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : ''))
    .join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat || '(empty body)';
}

/** `Retry-After` in seconds (HTTP dates are ignored: LLM APIs send seconds). */
function retryAfterMilliseconds(header: string | null): number | undefined {
  const seconds = header === null ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
