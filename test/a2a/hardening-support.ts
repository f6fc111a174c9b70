/**
 * A Parley A2A server for the hardening tests: the small banking assistant plus flows that are slow,
 * break, hand over to a human, and an action server scripted per action name.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { waitFor } from '../support/timing.js';
import { A2A_DOMAIN, A2A_FLOWS, writeA2aProject } from './a2a-project.js';

export interface ActionServer {
  readonly url: string;
  /** how many calls each action got */
  readonly calls: Map<string, number>;
  /** resolves once `action_slow` has been called `count` times in all: that many slow turns are running */
  slowCalls(count: number): Promise<void>;
  /** answers the `action_slow` calls held until now (see `scriptedActionServer`) */
  releaseSlow(): void;
  close(): Promise<void>;
}

/**
 * `action_slow` answers after `slow` ms, or, when `slow` is 'held', when the test calls `releaseSlow`
 * (so a turn runs exactly as long as the test needs, however slow the machine); `action_broken`
 * answers HTTP 500.
 */
export async function scriptedActionServer(slow: number | 'held'): Promise<ActionServer> {
  const calls = new Map<string, number>();
  const held: (() => void)[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const name = String(
        (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { next_action?: string }).next_action,
      );
      calls.set(name, (calls.get(name) ?? 0) + 1);
      response.setHeader('content-type', 'application/json');
      if (name === 'action_broken') {
        response.statusCode = 500;
        response.end(JSON.stringify({ error: 'boom' }));
        return;
      }
      const answer = () =>
        response.end(JSON.stringify({ events: [], responses: [{ text: 'Slow work done.' }] }));
      if (slow === 'held') held.push(answer);
      else setTimeout(answer, slow);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    calls,
    slowCalls: (count) =>
      waitFor(() => (calls.get('action_slow') ?? 0) >= count, `${count} calls of action_slow`),
    releaseSlow: () => {
      for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const DOMAIN = `${A2A_DOMAIN.replace('intents: [transfer_money, greet]', 'intents: [transfer_money, greet, slow, broken, human]')}
  actions: [action_slow, action_broken]
`;

const FLOWS = `${A2A_FLOWS}
    slow_work:
      description: Do slow work.
      nlu_trigger:
        - intent: slow
      steps:
        - action: action_slow
    broken_work:
      description: Work that always fails.
      nlu_trigger:
        - intent: broken
      steps:
        - action: action_broken
    talk_to_human:
      description: Hand the conversation to a person.
      nlu_trigger:
        - intent: human
      steps:
        - link: pattern_human_handoff
`;

export interface HardeningServerOptions {
  /** lines of the a2a_server block */
  readonly a2a?: readonly string[];
  readonly actionUrl: string;
  readonly keepAliveMs?: number;
  readonly closeGraceMs?: number;
}

export async function startHardeningServer(options: HardeningServerOptions): Promise<ParleyServer> {
  const root = writeA2aProject({
    domain: DOMAIN,
    flows: FLOWS,
    endpoints: `
      a2a_server:
        description: A small banking sub-agent.
${(options.a2a ?? []).map((line) => `        ${line}`).join('\n')}
      action_endpoint:
        url: ${options.actionUrl}
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
    // the HTTP API (no token) shows the conversations' trackers
    enableApi: true,
    ...(options.keepAliveMs !== undefined ? { a2aKeepAliveMs: options.keepAliveMs } : {}),
    ...(options.closeGraceMs !== undefined ? { closeGraceMs: options.closeGraceMs } : {}),
  });
}

/** A v0.3 message/send (or another method) with a fresh messageId unless one is given. */
export function send(
  text: string,
  message: Record<string, unknown> = {},
  options: { method?: string; blocking?: boolean } = {},
): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: crypto.randomUUID(),
    method: options.method ?? 'message/send',
    params: {
      message: {
        kind: 'message',
        messageId: crypto.randomUUID(),
        role: 'user',
        parts: [{ kind: 'text', text }],
        ...message,
      },
      ...(options.blocking === false ? { configuration: { blocking: false } } : {}),
    },
  };
}

export interface V03Task {
  readonly id: string;
  readonly contextId: string;
  readonly status: { state: string; message?: { parts: Record<string, unknown>[] } };
  readonly history?: unknown[];
  readonly artifacts?: { parts: Record<string, unknown>[] }[];
}

/** the data part of a v0.3 task's status message */
export function statusData(task: V03Task): Record<string, unknown> {
  const part = task.status.message?.parts.find((item) => item['kind'] === 'data');
  return (part?.['data'] ?? {}) as Record<string, unknown>;
}

export function statusTexts(task: V03Task): string[] {
  return (task.status.message?.parts ?? []).flatMap((item) =>
    item['kind'] === 'text' ? [String(item['text'])] : [],
  );
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
