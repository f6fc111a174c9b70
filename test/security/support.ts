/**
 * The server the security tests attack, on loopback: the small A2A banking assistant with bearer auth
 * (a shared HS256 secret, so each test can mint tokens for several calling agents), the REST and
 * socket.io channels, and the HTTP API behind a token.
 */
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer, ServeOptions } from '../../src/cli/serve.js';
import type { Logger } from '../../src/runtime/logger.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { writeA2aProject } from '../a2a/a2a-project.js';
import { hmacToken } from '../a2a/auth-support.js';
import { rpc } from '../a2a/rpc-support.js';
import type { RpcAnswer } from '../a2a/rpc-support.js';

export const SECRET = 'a-shared-secret-of-at-least-32-characters!';
export const API_TOKEN = 'operator-token';

export interface SecureServerOptions {
  /** extra lines of the a2a_server block */
  readonly a2a?: readonly string[];
  /** bearer auth on the JSON-RPC endpoint (default true) */
  readonly auth?: boolean;
  readonly logger?: Logger;
  readonly serve?: Partial<ServeOptions>;
}

export async function startSecureServer(options: SecureServerOptions = {}): Promise<ParleyServer> {
  const lines = [
    ...(options.auth === false ? [] : ['auth:', `  secret: "${SECRET}"`]),
    ...(options.a2a ?? []),
  ];
  const root = writeA2aProject({
    endpoints: `
      a2a_server:
        description: A small banking sub-agent.
${lines.map((line) => `        ${line}`).join('\n')}
    `,
    credentials: `
      rest: {}
      socketio:
        user_message_evt: user_uttered
        bot_message_evt: bot_uttered
        session_persistence: true
    `,
  });
  return startServer({
    location: { project: root },
    projectRoot: root,
    port: 0,
    host: '127.0.0.1',
    logger: options.logger ?? SILENT_LOGGER,
    trackerStore: new MemoryTrackerStore(),
    env: {},
    enableApi: true,
    auth: { token: API_TOKEN },
    ...options.serve,
  });
}

/** the Authorization header of a calling agent (the token's `sub`) */
export async function bearer(caller: string): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await hmacToken(SECRET, { subject: caller })}` };
}

/** a JSON-RPC call as `caller` */
export async function callAs(server: ParleyServer, caller: string, body: unknown): Promise<RpcAnswer> {
  return rpc(server.baseUrl, body, await bearer(caller));
}

/** the HTTP API's view of a conversation (with the operator token) */
export async function trackerOf(server: ParleyServer, conversationId: string): Promise<Tracker> {
  const response = await fetch(
    `${server.baseUrl}/conversations/${encodeURIComponent(conversationId)}/tracker?token=${API_TOKEN}`,
  );
  if (response.status !== 200) throw new Error(`tracker of ${conversationId}: HTTP ${response.status}`);
  return (await response.json()) as Tracker;
}

export interface Tracker {
  readonly sender_id: string;
  readonly slots: Record<string, unknown>;
  readonly events: {
    event: string;
    text?: string;
    metadata?: Record<string, unknown>;
    parse_data?: { text?: string };
  }[];
}

/** the user texts a conversation holds */
export function userTexts(tracker: Tracker): string[] {
  return tracker.events.flatMap((event) => (event.event === 'user' ? [event.text ?? ''] : []));
}

/** a REST webhook message as an unauthenticated client sends it */
export async function restMessage(
  server: ParleyServer,
  body: Record<string, unknown>,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** the value of one sample of /metrics (e.g. `parley_a2a_tasks`) */
export async function metricValue(server: ParleyServer, name: string): Promise<number> {
  const text = await (await fetch(`${server.baseUrl}/metrics?token=${API_TOKEN}`)).text();
  const line = text.split('\n').find((row) => row.startsWith(`${name} `));
  if (!line) throw new Error(`no metric ${name}`);
  return Number(line.split(' ')[1]);
}

/** a normal request still gets a normal answer (the server is up and serving) */
export async function stillServes(server: ParleyServer): Promise<boolean> {
  const answer = await restMessage(server, { sender: `check-${crypto.randomUUID()}`, message: 'hello' });
  return answer.status === 200 && Array.isArray(answer.body);
}
