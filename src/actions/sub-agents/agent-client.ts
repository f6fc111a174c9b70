/**
 * Talks to one external A2A agent with the official @a2a-js/sdk client: the card read from its URL or
 * file (v1.0, or v0.3 through the SDK's legacy mode, as the card says), the configured auth on every
 * request, one deadline per exchange (`configuration.timeout`). Streaming is used when the card offers
 * it; a reply that is not an answer yet (submitted, working) is polled with tasks/get until it is or
 * the deadline passes. The client is made when the agent is first called, not at start-up, so an agent
 * that is down fails its calls (into pattern_internal_error) and never stops the assistant.
 */
import { readFile } from 'node:fs/promises';
import { Role } from '@a2a-js/sdk';
import type { AgentCard, Part, SendMessageRequest } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import type { Client } from '@a2a-js/sdk/client';
import type { SubAgentConfig } from '../../core/agents/sub-agent.js';
import { AppError } from '../../core/errors.js';
import { foldStreamEvent, isSettled, replyOfResult, replyOfTask } from './agent-reply.js';
import type { AgentReply } from './agent-reply.js';

export interface AgentMessage {
  readonly text: string;
  readonly slots: readonly { readonly name: string; readonly value: unknown }[];
  readonly contextId?: string;
  readonly taskId?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface AgentCaller {
  send(agent: SubAgentConfig, message: AgentMessage): Promise<AgentReply>;
}

export type Environment = Readonly<Record<string, string | undefined>>;

const POLL_START_MS = 500;
const POLL_MAX_MS = 5_000;

export class A2AAgentCaller implements AgentCaller {
  private readonly clients = new Map<string, Promise<{ client: Client; streaming: boolean }>>();

  constructor(private readonly env: Environment) {}

  async send(agent: SubAgentConfig, message: AgentMessage): Promise<AgentReply> {
    const deadline = AbortSignal.timeout(agent.timeoutSeconds * 1000);
    try {
      const { client, streaming } = await this.clientFor(agent, deadline);
      const request = requestOf(message);
      let reply = streaming
        ? await this.stream(client, request, deadline)
        : replyOfResult(await client.sendMessage(request, { signal: deadline }));
      for (
        let wait = POLL_START_MS;
        !isSettled(reply) && reply.taskId;
        wait = Math.min(wait * 2, POLL_MAX_MS)
      ) {
        await sleep(wait, deadline);
        reply = replyOfTask(
          await client.getTask({ tenant: '', id: reply.taskId, historyLength: 0 }, { signal: deadline }),
        );
      }
      return reply;
    } catch (error) {
      if (!(error instanceof AppError)) this.clients.delete(agent.name);
      throw agentError(agent, error, deadline);
    }
  }

  private async stream(
    client: Client,
    request: SendMessageRequest,
    signal: AbortSignal,
  ): Promise<AgentReply> {
    let reply: AgentReply | undefined;
    for await (const event of client.sendMessageStream(request, { signal })) {
      reply = foldStreamEvent(reply, event);
      // a task snapshot opens the stream of a continued task with its previous state: only an update
      // (or a message) says this message was answered; a server closes the stream after the answer
      const answer = event.payload?.$case === 'statusUpdate' || event.payload?.$case === 'message';
      if (answer && reply && isSettled(reply)) break;
    }
    if (!reply)
      throw new AppError({ code: 'AGENT_BAD_RESPONSE', message: 'the stream ended without an answer' });
    return reply;
  }

  private clientFor(
    agent: SubAgentConfig,
    signal: AbortSignal,
  ): Promise<{ client: Client; streaming: boolean }> {
    let client = this.clients.get(agent.name);
    if (!client) {
      client = this.connect(agent, signal);
      this.clients.set(agent.name, client);
    }
    return client;
  }

  private async connect(
    agent: SubAgentConfig,
    signal: AbortSignal,
  ): Promise<{ client: Client; streaming: boolean }> {
    const fetchImpl = authenticatingFetch(agent, this.env);
    const legacyCompat = { enabled: true };
    const resolver = new DefaultAgentCardResolver({ fetchImpl, legacyCompat });
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [
          new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
          new RestTransportFactory({ fetchImpl, legacyCompat }),
        ],
        cardResolver: resolver,
      }),
    );
    const card = await cardOf(agent, resolver, signal);
    return {
      client: await factory.createFromAgentCard(card),
      streaming: card.capabilities?.streaming === true,
    };
  }
}

async function cardOf(
  agent: SubAgentConfig,
  resolver: DefaultAgentCardResolver,
  signal: AbortSignal,
): Promise<AgentCard> {
  const source = agent.agentCard;
  if (source.kind === 'file')
    return resolver.normalizeAgentCard(JSON.parse(await readFile(source.path, 'utf8')));
  let lastError: unknown;
  for (let attempt = 0; attempt < agent.maxRetries; attempt += 1) {
    try {
      return await resolver.resolve(source.url, '');
    } catch (error) {
      lastError = error;
      if (attempt + 1 < agent.maxRetries) await sleep(Math.min(250 * 2 ** attempt, 1_000), signal);
    }
  }
  throw lastError;
}

/** fetch with the agent's auth headers on every request (card, send, poll) */
function authenticatingFetch(agent: SubAgentConfig, env: Environment): typeof fetch {
  const headers = authHeaders(agent, env);
  if (Object.keys(headers).length === 0) return fetch;
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}

function authHeaders(agent: SubAgentConfig, env: Environment): Record<string, string> {
  const auth = agent.auth;
  if (auth.kind === 'api_key')
    return { [auth.header]: auth.format.replace('{key}', expand(auth.key, agent, env)) };
  if (auth.kind === 'token') return { Authorization: `Bearer ${expand(auth.token, agent, env)}` };
  return {};
}

function expand(value: string, agent: SubAgentConfig, env: Environment): string {
  return value.replace(/\$\{([^}]*)\}/g, (_whole, name: string) => {
    const resolved = env[name];
    if (resolved === undefined)
      throw new AppError({
        code: 'AGENT_CONFIG_INVALID',
        message: `sub-agent '${agent.name}': environment variable ${name} is not set`,
      });
    return resolved;
  });
}

function requestOf(message: AgentMessage): SendMessageRequest {
  const parts: Part[] = [
    {
      content: { $case: 'text', value: message.text },
      mediaType: 'text/plain',
      filename: '',
      metadata: undefined,
    },
  ];
  if (message.slots.length > 0)
    parts.push({
      content: { $case: 'data', value: { slots: message.slots } },
      mediaType: 'application/json',
      filename: '',
      metadata: undefined,
    });
  return {
    tenant: '',
    metadata: {},
    configuration: undefined,
    message: {
      messageId: crypto.randomUUID(),
      role: Role.ROLE_USER,
      contextId: message.contextId ?? '',
      taskId: message.taskId ?? '',
      metadata: { ...message.metadata },
      extensions: [],
      referenceTaskIds: [],
      parts,
    },
  };
}

function agentError(agent: SubAgentConfig, error: unknown, deadline: AbortSignal): AppError {
  if (error instanceof AppError) return error;
  if (deadline.aborted)
    return new AppError({
      code: 'AGENT_TIMEOUT',
      message: `sub-agent '${agent.name}' did not answer within ${agent.timeoutSeconds} s`,
    });
  const reason = error instanceof Error ? error.message : String(error);
  return new AppError({
    code: 'AGENT_UNREACHABLE',
    message: `sub-agent '${agent.name}' failed: ${reason}`,
    cause: error,
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
