import type { Domain } from '../../core/domain/types.js';
import { domainDigest, domainToJson } from './domain-json.js';
import type { DomainJson } from './domain-json.js';
import { decodeBody, validateResult } from './action-result.js';
import type { ActionServerResult } from './action-result.js';
import type { ActionEndpointConfig } from './endpoint-config.js';
import { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLarge, readBoundedText } from './bounded-body.js';
import { ActionServerError } from './errors.js';
import type { ActionServerErrorCode } from './errors.js';

/**
 * The Rasa version we announce. rasa-sdk only compares major.minor with its own and warns on a
 * mismatch, so announce the SDK line users are most likely to run.
 */
export const DEFAULT_RASA_VERSION = '3.14.0';

export interface ActionServerRequest {
  readonly actionName: string;
  readonly senderId: string;
  /** the tracker's `current_state` JSON (events included), built by the caller */
  readonly tracker: unknown;
}

export interface ActionServerClientOptions {
  readonly endpoint: ActionEndpointConfig;
  readonly domain: Domain;
  /** defaults to the global fetch */
  readonly fetch?: typeof fetch;
  /** the `version` sent to the server; defaults to DEFAULT_RASA_VERSION */
  readonly version?: string;
  /** seconds since the epoch; stamps events the server sent without a timestamp */
  readonly clock: () => number;
  /** a larger answer fails the action (ACTION_SERVER_BAD_RESPONSE); DEFAULT_MAX_RESPONSE_BYTES by default */
  readonly maxResponseBytes?: number;
}

interface Reply {
  readonly status: number;
  readonly text: string;
}

/** Runs custom actions on an action server that speaks the Rasa SDK protocol (`POST <url>`). */
export class ActionServerClient {
  readonly domainJson: DomainJson;
  readonly domainDigest: string;
  private readonly endpoint: ActionEndpointConfig;
  private readonly domain: Domain;
  private readonly fetch: typeof fetch;
  private readonly version: string;
  private readonly clock: () => number;
  private readonly requestUrl: string;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly maxResponseBytes: number;

  constructor(options: ActionServerClientOptions) {
    this.endpoint = options.endpoint;
    this.domain = options.domain;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.version = options.version ?? DEFAULT_RASA_VERSION;
    this.clock = options.clock;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.domainJson = domainToJson(options.domain);
    this.domainDigest = domainDigest(this.domainJson);
    this.requestUrl = requestUrl(options.endpoint);
    this.headers = requestHeaders(options.endpoint);
  }

  /**
   * Runs one action. Sends the domain unless selective domain is on and the action is not declared
   * with `send_domain: true`; then only the digest goes, and a `449` (the server has no domain with
   * that digest) is answered by resending once with the domain. Throws ActionServerError.
   */
  async run(request: ActionServerRequest): Promise<ActionServerResult> {
    const withDomain = this.shouldSendDomain(request.actionName);
    let reply = await this.post(request, withDomain);
    if (reply.status === 449 && !withDomain) reply = await this.post(request, true);
    return this.readReply(request.actionName, reply);
  }

  private shouldSendDomain(actionName: string): boolean {
    if (!this.endpoint.enableSelectiveDomain) return true;
    return this.domain.actions.get(actionName)?.sendDomain === true;
  }

  private body(request: ActionServerRequest, withDomain: boolean): string {
    return JSON.stringify({
      next_action: request.actionName,
      sender_id: request.senderId,
      tracker: withSenderId(request.tracker, request.senderId),
      ...(withDomain ? { domain: this.domainJson } : {}),
      domain_digest: this.domainDigest,
      version: this.version,
    });
  }

  private async post(request: ActionServerRequest, withDomain: boolean): Promise<Reply> {
    let response: Response;
    try {
      response = await this.fetch(this.requestUrl, {
        method: 'POST',
        headers: this.headers,
        body: this.body(request, withDomain),
        signal: AbortSignal.timeout(this.endpoint.timeoutSeconds * 1000),
      });
    } catch (error) {
      throw this.transportError(request.actionName, error);
    }
    try {
      return { status: response.status, text: await readBoundedText(response, this.maxResponseBytes) };
    } catch (error) {
      if (error instanceof ResponseTooLarge)
        throw this.badResponse(request.actionName, { status: response.status, text: '' }, error.message);
      throw this.transportError(request.actionName, error);
    }
  }

  private transportError(actionName: string, error: unknown): ActionServerError {
    const url = this.endpoint.url;
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return new ActionServerError({
        code: 'ACTION_SERVER_TIMEOUT',
        message:
          `Failed to execute custom action '${actionName}': the action server at '${url}' did not answer ` +
          `within ${this.endpoint.timeoutSeconds} s.`,
        actionName,
        url,
        cause: error,
      });
    }
    return new ActionServerError({
      code: 'ACTION_SERVER_UNREACHABLE',
      message:
        `Failed to execute custom action '${actionName}'. Couldn't connect to the server at '${url}'. ` +
        `Is the server running? Error: ${describe(error)}`,
      actionName,
      url,
      cause: error,
    });
  }

  private readReply(actionName: string, reply: Reply): ActionServerResult {
    if (reply.status >= 400) throw this.statusError(actionName, reply);
    const body = decodeBody(reply.text);
    if (!body.ok) throw this.badResponse(actionName, reply, body.error);
    const result = validateResult(body.value, this.clock());
    if (!result.ok) throw this.badResponse(actionName, reply, result.error);
    return result.value;
  }

  private statusError(actionName: string, reply: Reply): ActionServerError {
    const url = this.endpoint.url;
    const body = decodeBody(reply.text);
    const decoded = body.ok ? body.value : reply.text;
    const serverMessage =
      isRecord(decoded) && typeof decoded['error'] === 'string' ? decoded['error'] : undefined;
    const error = (code: ActionServerErrorCode, message: string): ActionServerError =>
      new ActionServerError({ code, message, actionName, status: reply.status, url, body: decoded });
    switch (reply.status) {
      case 400:
        return error(
          'ACTION_SERVER_REJECTED',
          serverMessage ?? `Custom action '${actionName}' rejected to run`,
        );
      case 404:
        return error(
          'ACTION_NOT_FOUND',
          `Failed to execute custom action '${actionName}': the action server at '${url}' does not know it ` +
            `(404).${serverMessage ? ` Error: ${serverMessage}` : ''}`,
        );
      case 449:
        return error(
          'DOMAIN_NOT_FOUND',
          `Failed to execute custom action '${actionName}': the action server at '${url}' still asked for ` +
            `the domain (449) after it was sent.`,
        );
      default:
        return error(
          'ACTION_SERVER_FAILED',
          `Failed to run custom action '${actionName}'. Action server responded with a non 200 status code ` +
            `of ${reply.status}. Make sure your action server properly runs actions and returns a 200 once ` +
            `the action is executed.${serverMessage ? ` Error: ${serverMessage}` : ''}`,
        );
    }
  }

  private badResponse(actionName: string, reply: Reply, problem: string): ActionServerError {
    return new ActionServerError({
      code: 'ACTION_SERVER_BAD_RESPONSE',
      message:
        `Failed to validate the action server response for custom action '${actionName}': ${problem}. ` +
        `Make sure your action server answers {"events": [...], "responses": [...]}.`,
      actionName,
      status: reply.status,
      url: this.endpoint.url,
      body: reply.text,
    });
  }
}

/** rasa-sdk's `Tracker.from_dict` requires `sender_id` in the tracker. */
function withSenderId(tracker: unknown, senderId: string): unknown {
  if (!isRecord(tracker) || typeof tracker['sender_id'] === 'string') return tracker;
  return { ...tracker, sender_id: senderId };
}

function requestUrl(endpoint: ActionEndpointConfig): string {
  const url = new URL(endpoint.url);
  for (const [name, value] of Object.entries(endpoint.params)) url.searchParams.set(name, value);
  if (endpoint.token !== undefined) url.searchParams.set(endpoint.tokenName, endpoint.token);
  return url.toString();
}

function requestHeaders(endpoint: ActionEndpointConfig): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...endpoint.headers };
  if (endpoint.basicAuth) {
    const { username, password } = endpoint.basicAuth;
    headers['Authorization'] = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }
  return headers;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
