import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destination } from 'pino';
import { createLogger, flushLogs } from '../../src/cli/logger.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';

describe('flushLogs: the last lines of an ending process are written', () => {
  const folder = mkdtempSync(join(tmpdir(), 'parley-flush-'));
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('waits until the lines logged through an asynchronous destination are in the file', async () => {
    const file = join(folder, 'log.jsonl');
    const stream = destination({ dest: file, sync: false, minLength: 4096 });
    const logger = createLogger({ level: 'info', destination: stream });
    for (let index = 0; index < 50; index += 1) logger.info({ index }, 'a line');
    await flushLogs(logger);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).to.have.lengthOf(50);
    expect(JSON.parse(lines[49] as string)).to.include({ index: 49, msg: 'a line' });
    stream.end();
  });

  it('returns at once for a logger that writes synchronously', async () => {
    await flushLogs(SILENT_LOGGER);
  });
});
