import { expect } from 'chai';
import { Router } from 'express';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RestChannel } from '../../src/channels/rest.js';
import { composeAgent } from '../../src/cli/compose.js';
import { startServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { createApp } from '../../src/server/app.js';
import type { AppOptions } from '../../src/server/app.js';
import { TurnGate } from '../../src/server/turn-gate.js';
import { PARLEY_VERSION } from '../../src/version.js';
import { inlineAssistant } from '../support/inline-assistant.js';
import { OBSERVED_PROJECT, writeProject } from './observability-project.js';

async function serve(options: Omit<AppOptions, 'gate' | 'channels'>): Promise<{
  server: Server;
  url: string;
  gate: TurnGate;
}> {
  const assistant = inlineAssistant(OBSERVED_PROJECT);
  const agent = await composeAgent({ assistant, projectRoot: writeProject(OBSERVED_PROJECT) });
  const gate = new TurnGate({ agent, logger: SILENT_LOGGER });
  const server = createServer(createApp({ gate, channels: [new RestChannel()], ...options }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, gate };
}

describe('health routes', function () {
  this.timeout(20_000);

  it('answers GET / and a public GET /status on `parley run`', async () => {
    const root = writeProject(OBSERVED_PROJECT);
    const server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
    });
    try {
      const hello = await fetch(`${server.baseUrl}/`);
      expect(await hello.text()).to.equal(`Hello from Parley: ${PARLEY_VERSION}`);
      const status = await fetch(`${server.baseUrl}/status`);
      expect(status.status).to.equal(200);
      const body = (await status.json()) as Record<string, unknown>;
      expect(body).to.include({ status: 'ok', version: PARLEY_VERSION, turns_in_flight: 0 });
      expect(body['uptime_seconds']).to.be.a('number');
    } finally {
      await server.close();
    }
  });

  it('answers 503 shutting_down once a shutdown began', async () => {
    const { server, url, gate } = await serve({ publicStatus: true });
    try {
      await gate.drain();
      const status = await fetch(`${url}/status`);
      expect(status.status).to.equal(503);
      expect(await status.json()).to.include({ status: 'shutting_down' });
    } finally {
      server.close();
    }
  });

  it("leaves /status to a router that serves its own (the HTTP API's, behind auth)", async () => {
    const api = Router();
    api.get('/status', (_request, response) => {
      response.status(401).json({ reason: 'NotAuthenticated' });
    });
    const { server, url } = await serve({ publicStatus: true, routers: [{ path: '/', router: api }] });
    try {
      const status = await fetch(`${url}/status`);
      expect(status.status).to.equal(401);
      expect(await status.json()).to.deep.equal({ reason: 'NotAuthenticated' });
    } finally {
      server.close();
    }
  });

  it('has no /status unless asked for', async () => {
    const { server, url } = await serve({});
    try {
      expect((await fetch(`${url}/status`)).status).to.equal(404);
    } finally {
      server.close();
    }
  });
});
