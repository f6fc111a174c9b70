/**
 * An orchestrator's client for A2A v1.0 (@a2a-js/sdk 1.x speaks it natively).
 *
 *   npx tsx examples/a2a-client/v1.ts http://localhost:5005
 *
 * The factory reads the AgentCard at <base>/.well-known/agent-card.json and picks its v1.0 JSON-RPC
 * interface; every request carries `A2A-Version: 1.0`.
 */
import { ClientFactory } from '@a2a-js/sdk/client';
import { tour } from './tour.js';

const base = process.argv[2] ?? 'http://localhost:5005';
const client = await new ClientFactory().createFromUrl(base);
process.stdout.write(`protocol: ${client.protocolVersion}\n`);
await tour(client);
