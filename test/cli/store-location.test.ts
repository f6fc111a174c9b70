import { expect } from 'chai';
import { existsSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { writeInlineProject } from '../support/inline-project.js';

const PROJECT = {
  domain: `
    intents: [greet]
    responses:
      utter_hi:
        - text: hi
  `,
  flows: `
    flows:
      greet:
        description: say hi
        nlu_trigger:
          - intent: greet
        steps:
          - action: utter_hi
  `,
  nlu: `
    nlu:
      - intent: greet
        examples: |
          - hello
          - hi there
          - good morning
  `,
};

/**
 * `parley run --project <folder>` from another folder: the default SQLite tracker store is inside the
 * project, and the start-up summary and /status name that file by its absolute path, not as `./.parley/…`
 * (which reads as relative to the folder the server was started from).
 */
describe('where the SQLite tracker store is, as the server says it', function () {
  this.timeout(60_000);
  let root: string;
  let server: ParleyServer | undefined;

  before(async () => {
    root = writeInlineProject(PROJECT);
    // the project as a user names it from another folder: a relative path
    const project = relative(process.cwd(), root);
    server = await startServer({
      location: { project },
      projectRoot: project,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      enableApi: true,
      env: {},
    });
  });
  after(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('names the absolute path of the database file in the start-up summary and in /status', async () => {
    const file = join(root, '.parley', 'tracker.db');
    expect(server!.summary.join('\n')).to.contain(`tracker store: sqlite at ${file}`);
    const status = (await (await fetch(`${server!.baseUrl}/status`)).json()) as Record<string, unknown>;
    expect(status['tracker_store']).to.equal(`sqlite at ${file}`);
    expect(existsSync(file)).to.equal(true);
  });
});
