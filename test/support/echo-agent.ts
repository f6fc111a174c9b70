/**
 * The @a2a-js/sdk's own server as an A2A agent for tests (as bench/a2a.js builds it): every message gets
 * a completed task whose status message echoes the text.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { AGENT_CARD_PATH, Role, TaskState } from '@a2a-js/sdk';
import type { AgentCard, Part } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import type { AgentExecutor } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';

export interface EchoAgent {
  readonly baseUrl: string;
  readonly cardUrl: string;
  readonly received: string[];
  close(): Promise<void>;
}

const textPart = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

export interface EchoOptions {
  /** the state the task ends in (default completed) */
  readonly state?: TaskState;
  /** wait this long before answering */
  readonly delayMs?: number;
}

export async function startEchoAgent(options: EchoOptions = {}): Promise<EchoAgent> {
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const received: string[] = [];
  const card = {
    name: 'Echo Agent',
    description: 'Echoes text.',
    supportedInterfaces: duplicateInterfacesForLegacy(
      [{ url: `${baseUrl}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
      ['JSONRPC'],
    ),
    provider: undefined,
    version: '0.0.1',
    documentationUrl: '',
    iconUrl: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'echo',
        name: 'Echo',
        description: 'Echo back',
        tags: ['echo'],
        examples: ['hi'],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  } as unknown as AgentCard;
  const executor: AgentExecutor = {
    execute(request, bus) {
      const { taskId, contextId, userMessage } = request;
      const text = userMessage.parts
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join(' ');
      received.push(text);
      const answer = (): void =>
        bus.publish(
          AgentEvent.task({
            id: taskId,
            contextId,
            artifacts: [],
            history: [userMessage],
            metadata: {},
            status: {
              state: options.state ?? TaskState.TASK_STATE_COMPLETED,
              timestamp: new Date().toISOString(),
              message: {
                messageId: randomUUID(),
                role: Role.ROLE_AGENT,
                parts: [textPart(`echo: ${text}`)],
                taskId,
                contextId,
                metadata: {},
                extensions: [],
                referenceTaskIds: [],
              },
            },
          }),
        );
      if (!options.delayMs) {
        answer();
        return Promise.resolve();
      }
      return new Promise((resolve) =>
        setTimeout(() => {
          answer();
          resolve();
        }, options.delayMs),
      );
    },
    cancelTask: () => Promise.resolve(),
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use(
    `/${AGENT_CARD_PATH}`,
    agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: true } }),
  );
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({
      requestHandler: handler,
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat: { enabled: true },
    }),
  );
  return {
    baseUrl,
    cardUrl: `${baseUrl}/${AGENT_CARD_PATH}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
