/** A small assistant served by `startServer` with an event broker, and a REST turn to drive it. */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { startServer } from '../../../src/cli/serve.js';
import type { ParleyServer } from '../../../src/cli/serve.js';
import type { Logger } from '../../../src/runtime/logger.js';
import { SILENT_LOGGER } from '../../../src/runtime/logger.js';
import type { TrackerStore } from '../../../src/core/ports.js';
import { writeInlineProject } from '../../support/inline-project.js';

const DOMAIN = `
  version: "3.1"
  responses:
    utter_greet:
      - text: Hello!
    utter_more:
      - text: And more.
`;

const FLOWS = `
  flows:
    greet:
      description: say hello
      nlu_trigger: [{intent: greet}]
      steps:
        - action: utter_greet
        - action: utter_more
`;

export interface BrokerServer {
  readonly server: ParleyServer;
  readonly root: string;
  close(): Promise<void>;
}

export async function startBrokerServer(options: {
  readonly endpoints: string;
  readonly trackerStore?: TrackerStore;
  readonly logger?: Logger;
}): Promise<BrokerServer> {
  const root = writeInlineProject({
    domain: DOMAIN,
    flows: FLOWS,
    endpoints: options.endpoints,
    credentials: 'rest:\n',
  });
  const server = await startServer({
    location: { project: root },
    projectRoot: root,
    port: 0,
    host: '127.0.0.1',
    logger: options.logger ?? SILENT_LOGGER,
    metrics: { processMetrics: false },
    ...(options.trackerStore ? { trackerStore: options.trackerStore } : {}),
  }).catch((error: unknown) => {
    rmSync(root, { recursive: true, force: true });
    throw error;
  });
  return {
    server,
    root,
    close: async () => {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** One REST turn; resolves with the bot's texts. */
export async function say(server: ParleyServer, sender: string, message = '/greet'): Promise<string[]> {
  const response = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ sender, message }),
  });
  expect(response.status).to.equal(200);
  const messages = (await response.json()) as { text?: string }[];
  return messages.map((item) => item.text ?? '');
}

/** The value of one sample of the Prometheus exposition, e.g. `parley_event_broker_backlog_events`. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
