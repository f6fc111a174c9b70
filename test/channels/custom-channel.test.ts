import { expect } from 'chai';
import { resolve } from 'node:path';
import { startServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { recordingLogger } from '../support/recording-logger.js';
import { writeInlineProject } from '../support/inline-project.js';

const EXAMPLE = resolve('examples/custom-channel');

/** A one-flow project with these credentials, served on a free port with a recording logger. */
async function serveWithCredentials(credentials: string) {
  const root = writeInlineProject({
    domain: 'version: "3.1"\nresponses:\n  utter_hi:\n    - text: hi\n',
    flows: 'flows:\n  hi:\n    description: hi\n    steps:\n      - action: utter_hi\n',
    credentials,
  });
  const logger = recordingLogger();
  const server = await startServer({
    location: { project: root },
    projectRoot: root,
    port: 0,
    host: '127.0.0.1',
    logger,
  });
  return { root, logger, server };
}

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

  it('refuses to start, naming every unusable channel, when credentials.yml configures channels badly; skips the ones it does not have', async () => {
    const root = writeInlineProject({
      domain: 'version: "3.1"\nresponses:\n  utter_hi:\n    - text: hi\n',
      flows: 'flows:\n  hi:\n    description: hi\n    steps:\n      - action: utter_hi\n',
      credentials:
        'slack:\n  token: x\naddons.missing.Channel:\ncallback:\n  url: not-a-url\nsocketio:\n  session_persistence: maybe\n',
    });
    const logger = recordingLogger();
    const warnings = logger.warnings;
    const failure = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger,
    }).then(
      () => undefined,
      (error: unknown) => error as Error & { code: string },
    );
    expect(failure?.code).to.equal('PROJECT_INVALID');
    expect(failure?.message).to.contain('2 channel(s) cannot start');
    expect(failure?.message).to.contain("callback: credentials.yml: the callback channel needs 'url'");
    expect(failure?.message).to.contain('socketio:');
    expect(warnings).to.include.members([
      "credentials.yml: 'slack' is skipped: Parley does not ship Rasa's 'slack' channel; write it as a custom channel (docs/channels.md).",
    ]);
    expect(
      warnings.some((line) =>
        line.startsWith("credentials.yml: 'addons.missing.Channel' is skipped: Failed to find"),
      ),
    ).to.equal(true);
  });

  it('serves the channels it has and skips the ones it does not (rasa:, browser_audio:, a missing module), one warning each', async () => {
    const { root, logger, server } = await serveWithCredentials(
      'rasa:\n  url: http://localhost:5002/api\nbrowser_audio:\n  server_url: x\naddons.gone.Channel:\nrest:\n',
    );
    const warnings = logger.warnings;
    try {
      expect(server.summary).to.include('channels: rest');
      expect(warnings.filter((line) => line.includes('is skipped'))).to.have.length(3);
      const answer = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender: 'u', message: '/hi' }),
      });
      expect(answer.status).to.equal(200);
    } finally {
      await server.close();
    }
    // --connector naming a channel Parley does not have is still an error
    const refused = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      connector: 'rasa',
    }).then(
      () => undefined,
      (error: unknown) => error as Error & { code: string },
    );
    expect(refused?.code).to.equal('PROJECT_INVALID');
    expect(refused?.message).to.contain("rasa: Parley does not ship Rasa's 'rasa' channel");
  });

  it('says a misspelt channel once at start-up: the validation warning with its hint, the skip only at info', async () => {
    const { logger, server } = await serveWithCredentials('socketi0:\nrest:\n');
    try {
      const about = logger.warnings.filter((line) => line.includes('socketi0'));
      expect(about).to.have.length(1);
      expect(about[0]).not.to.contain('is skipped');
      expect(server.summary).to.include('channels: rest');
    } finally {
      await server.close();
    }
  });
});
