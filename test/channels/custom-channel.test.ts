import { expect } from 'chai';
import { resolve } from 'node:path';
import { startServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { writeInlineProject } from '../support/inline-project.js';

const EXAMPLE = resolve('examples/custom-channel');

describe('custom channels (the plugin API)', function () {
  this.timeout(20_000);

  it('serves the example channel named by module path in credentials.yml, with its credentials', async () => {
    const server = await startServer({
      location: { project: EXAMPLE },
      projectRoot: EXAMPLE,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
    });
    try {
      const ask = await fetch(`${server.baseUrl}/webhooks/simple/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user: 'ann', text: '/balance' }),
      });
      expect(await ask.json()).to.deep.equal({
        replies: [
          'bot: Which account?',
          'bot: 1: Checking (/SetSlots(account=checking))',
          'bot: 2: Savings (/SetSlots(account=savings))',
        ],
      });
      const answer = await fetch(`${server.baseUrl}/webhooks/simple/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user: 'ann', text: '/SetSlots(account=savings)' }),
      });
      const { replies } = (await answer.json()) as { replies: string[] };
      expect(replies[0]).to.equal('bot: Your savings balance is 100.');
      const rest = await fetch(`${server.baseUrl}/webhooks/rest/`);
      expect(rest.status, 'the other channel of credentials.yml is served too').to.equal(200);
    } finally {
      await server.close();
    }
  });

  it('refuses to start, naming every unusable channel, when credentials.yml names channels it cannot load', async () => {
    const root = writeInlineProject({
      domain: 'version: "3.1"\nresponses:\n  utter_hi:\n    - text: hi\n',
      flows: 'flows:\n  hi:\n    description: hi\n    steps:\n      - action: utter_hi\n',
      credentials: 'slack:\n  token: x\naddons.missing.Channel:\ncallback:\n  url: not-a-url\n',
    });
    const failure = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
    }).then(
      () => undefined,
      (error: unknown) => error as Error & { code: string },
    );
    expect(failure?.code).to.equal('PROJECT_INVALID');
    expect(failure?.message).to.contain('3 channel(s) cannot start');
    expect(failure?.message).to.contain("slack: Parley does not ship Rasa's 'slack' channel");
    expect(failure?.message).to.contain('addons.missing.Channel: Failed to find input channel class');
    expect(failure?.message).to.contain("callback: credentials.yml: the callback channel needs 'url'");
  });
});
