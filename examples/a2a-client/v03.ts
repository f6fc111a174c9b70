/**
 * An orchestrator's client for A2A v0.3 (the wire of Google ADK, Rasa and a2a-sdk 0.3), with
 * @a2a-js/sdk 1.x in its legacy mode.
 *
 *   npx tsx examples/a2a-client/v03.ts http://localhost:5005
 *
 * Parley's card lists one endpoint twice, at protocol 1.0 and 0.3; keeping only the 0.3 interface
 * makes the factory choose the legacy JSON-RPC transport, which sends `message/send`, `tasks/get`…
 * with `A2A-Version: 0.3`.
 */
import type { AgentCard } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { tour } from './tour.js';

const base = process.argv[2] ?? 'http://localhost:5005';
const answer = await fetch(new URL('/.well-known/agent-card.json', base), {
  headers: { 'A2A-Version': '1.0' },
});
const card = (await answer.json()) as AgentCard;
card.supportedInterfaces = card.supportedInterfaces.filter((item) => item.protocolVersion === '0.3');
const factory = new ClientFactory(
  ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
  }),
);
const client = await factory.createFromAgentCard(card);
process.stdout.write(`protocol: ${client.protocolVersion}\n`);
await tour(client);
