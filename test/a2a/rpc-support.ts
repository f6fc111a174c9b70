/** A Parley server with an A2A block for the JSON-RPC tests, a slow action server, and raw JSON-RPC calls. */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { A2A_DOMAIN, A2A_FLOWS, writeA2aProject } from './a2a-project.js';

/** An action server whose `action_slow` answers after `delayMs`. */
export async function slowActionServer(
  delayMs: number,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      setTimeout(() => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ events: [], responses: [{ text: 'Slow work done.' }] }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RpcServerOptions {
  readonly a2a?: string;
  readonly actionUrl?: string;
  readonly keepAliveMs?: number;
}

export async function startRpcServer(options: RpcServerOptions = {}): Promise<ParleyServer> {
  const a2a = options.a2a ?? '';
  const root = writeA2aProject({
    domain: `${A2A_DOMAIN}\n  actions: [action_slow]\n`,
    flows: `${A2A_FLOWS}\n    slow_work:\n      description: Do slow work.\n      steps:\n        - action: action_slow\n`,
    endpoints: `
      a2a_server:
        description: A small banking sub-agent.
${a2a
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => `        ${line.trim()}`)
  .join('\n')}
      ${options.actionUrl ? `action_endpoint:\n        url: ${options.actionUrl}` : ''}
    `,
  });
  return startServer({
    location: { project: root },
    projectRoot: root,
    port: 0,
    host: '127.0.0.1',
    logger: SILENT_LOGGER,
    trackerStore: new MemoryTrackerStore(),
    env: {},
    ...(options.keepAliveMs !== undefined ? { a2aKeepAliveMs: options.keepAliveMs } : {}),
  });
}

export interface RpcAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

export async function rpc(
  base: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const response = await fetch(`${base}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

let counter = 0;
export function v03Send(text: string, extra: Record<string, unknown> = {}, id: unknown = 1): unknown {
  counter += 1;
  return {
    jsonrpc: '2.0',
    id,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        messageId: `m-${counter}`,
        role: 'user',
        parts: [{ kind: 'text', text }],
        ...extra,
      },
    },
  };
}

export function v1Send(text: string, extra: Record<string, unknown> = {}, method = 'SendMessage'): unknown {
  counter += 1;
  return {
    jsonrpc: '2.0',
    id: `v1-${counter}`,
    method,
    params: { message: { messageId: `v1m-${counter}`, role: 'ROLE_USER', parts: [{ text }], ...extra } },
  };
}

/**
 * SSE `data:` payloads (and comment lines) of a streamed answer, read to its end; `onComment` hears of
 * each comment as it arrives, with the count so far.
 */
export async function readSse(
  response: Response,
  onComment: (count: number) => void = () => undefined,
): Promise<{ events: Record<string, unknown>[]; comments: number }> {
  const blocks: string[] = [];
  let comments = 0;
  let pending = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body ?? []) {
    pending += decoder.decode(chunk as Uint8Array, { stream: true });
    const complete = pending.split('\n\n');
    pending = complete.pop() ?? '';
    for (const block of complete.filter((item) => item.trim() !== '')) {
      blocks.push(block);
      if (block.startsWith(':')) onComment((comments += 1));
    }
  }
  if (pending.trim() !== '') blocks.push(pending);
  const events = blocks
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice(6)) as Record<string, unknown>);
  return { events, comments: blocks.filter((block) => block.startsWith(':')).length };
}
