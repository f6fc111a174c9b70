/**
 * A real local HTTP server speaking OpenAI's chat-completions API, for tests of LLM clients. Each
 * answer comes from a function of the request, so a test can script replies, delay them, fail with any
 * status, send broken bodies, or never answer. Every request is recorded.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  /** 0 for the first request the server received */
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** the decoded JSON body, or the raw text when it is not JSON */
  readonly body: unknown;
  /** `body.messages[*].content` joined, the prompt as the model sees it */
  readonly prompt: string;
}

export type FakeReply =
  /** a chat completion whose first choice says `content` */
  | { readonly content: string | null; readonly delayMs?: number }
  /** any status and body (an object is sent as JSON, a string as is) */
  | {
      readonly status: number;
      readonly body?: unknown;
      readonly headers?: Readonly<Record<string, string>>;
      readonly delayMs?: number;
    }
  /** never answer (until the server closes) */
  | { readonly hang: true };

export type FakeHandler = (request: FakeRequest) => FakeReply | string | Promise<FakeReply | string>;

export interface FakeOpenAi {
  /** the API root to configure as `api_base`, e.g. `http://127.0.0.1:4711/v1` */
  readonly apiBase: string;
  readonly requests: readonly FakeRequest[];
  /** replaces the handler for the following requests */
  answer(handler: FakeHandler): void;
  close(): Promise<void>;
}

const CHAT_PATH_END = '/chat/completions';

/** Starts the server on 127.0.0.1 and a free port. A string reply is a completion with that content. */
export async function startFakeOpenAi(handler: FakeHandler = () => 'cannot handle'): Promise<FakeOpenAi> {
  const requests: FakeRequest[] = [];
  let current = handler;
  const server = createServer((request, response) => {
    void serve(request, response);
  });

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    const body = decode(text);
    const recorded: FakeRequest = {
      index: requests.length,
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      headers: request.headers,
      body,
      prompt: promptOf(body),
    };
    requests.push(recorded);
    // any API root ending in the chat path: Azure puts a deployment before it and a query after it
    const pathname = recorded.path.split('?')[0] ?? '';
    if (recorded.method !== 'POST' || !pathname.endsWith(CHAT_PATH_END)) {
      send(response, 404, { error: { message: `no route ${recorded.method} ${recorded.path}` } });
      return;
    }
    try {
      const reply = await current(recorded);
      await writeReply(response, typeof reply === 'string' ? { content: reply } : reply);
    } catch (error) {
      send(response, 500, { error: { message: `fake handler failed: ${String(error)}` } });
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}/v1`,
    requests,
    answer: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A chat-completions body whose first choice says `content`. */
export function completion(content: string | null): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'fake-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

async function writeReply(response: ServerResponse, reply: FakeReply): Promise<void> {
  if ('hang' in reply) return;
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (response.destroyed) return;
  if ('content' in reply) send(response, 200, completion(reply.content));
  else send(response, reply.status, reply.body ?? '', reply.headers);
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain' : 'application/json';
  response.writeHead(status, { 'Content-Type': type, ...headers });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function decode(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function promptOf(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return '';
  return messages
    .map((message: unknown) =>
      typeof message === 'object' && message !== null
        ? String((message as { content?: unknown }).content)
        : '',
    )
    .join('\n');
}
