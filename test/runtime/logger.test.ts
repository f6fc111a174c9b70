import { expect } from 'chai';
import { SILENT_LOGGER, withFields } from '../../src/runtime/logger.js';
import type { Logger } from '../../src/runtime/logger.js';

describe('withFields', () => {
  it('adds its fields to every line of a logger without children', () => {
    const lines: [string, Record<string, unknown>][] = [];
    const logger: Logger = {
      info: (fields, message) => lines.push([message, fields]),
      warn: (fields, message) => lines.push([message, fields]),
      error: (fields, message) => lines.push([message, fields]),
    };
    const bound = withFields(logger, { requestId: 'r1' });
    bound.info({ status: 200 }, 'http.request');
    bound.child?.({ channel: 'rest' }).warn({}, 'slow');
    expect(lines).to.deep.equal([
      ['http.request', { requestId: 'r1', status: 200 }],
      ['slow', { requestId: 'r1', channel: 'rest' }],
    ]);
  });

  it('gives the silent logger back as it is: its lines go nowhere, so nothing is copied for them', () => {
    expect(withFields(SILENT_LOGGER, { requestId: 'r1' })).to.equal(SILENT_LOGGER);
  });
});
