/**
 * Finding: a client's text was kept and logged whole. A message of megabytes was stored several times
 * over (the event, its parse data, the A2A history), and a 2 MB id or text made a 2 MB line in every
 * log line quoting it. Stored user text is now cut at 4,096 characters (its length noted in the
 * metadata as `original_text_length`), and the process logger bounds every string it writes.
 */
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { createLogger } from '../../src/cli/logger.js';
import {
  MAX_STORED_TEXT_LENGTH,
  ORIGINAL_TEXT_LENGTH_KEY,
  storedUserText,
} from '../../src/core/text/stored-text.js';
import { MAX_LOG_STRING, boundedLogString, boundedLogValue } from '../../src/runtime/log-fields.js';
import { withFields } from '../../src/runtime/logger.js';
import { restMessage, startSecureServer, trackerOf } from './support.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EMOJI = '\u{1F642}';

describe('Stored user text: cut at 4,096 characters', () => {
  it('caps stored text at 4,096 characters, noted as original_text_length', () => {
    expect(MAX_STORED_TEXT_LENGTH).to.equal(4_096);
    expect(ORIGINAL_TEXT_LENGTH_KEY).to.equal('original_text_length');
  });

  it('keeps a text within the cap unchanged, with the same metadata object', () => {
    const metadata = { locale: 'de' };
    for (const text of ['hello', '', 'x'.repeat(MAX_STORED_TEXT_LENGTH)]) {
      const stored = storedUserText(text, metadata);
      expect(stored.text).to.equal(text);
      expect(stored.metadata).to.equal(metadata);
    }
    expect(storedUserText('hello', undefined).metadata).to.equal(undefined);
  });

  it('cuts a longer text to the cap and notes its length in a copy of the metadata', () => {
    const metadata = { locale: 'de' };
    const stored = storedUserText('x'.repeat(10_000), metadata);
    expect(stored.text).to.equal('x'.repeat(MAX_STORED_TEXT_LENGTH));
    expect(stored.metadata).to.deep.equal({ locale: 'de', [ORIGINAL_TEXT_LENGTH_KEY]: 10_000 });
    expect(stored.metadata).to.not.equal(metadata);
    expect(metadata).to.deep.equal({ locale: 'de' });
  });

  it('notes the length in new metadata when the message had none', () => {
    const stored = storedUserText('y'.repeat(MAX_STORED_TEXT_LENGTH + 1), undefined);
    expect(stored.text).to.have.length(MAX_STORED_TEXT_LENGTH);
    expect(stored.metadata).to.deep.equal({ [ORIGINAL_TEXT_LENGTH_KEY]: MAX_STORED_TEXT_LENGTH + 1 });
  });

  it('never cuts a surrogate pair in half', () => {
    const straddling = `${'x'.repeat(MAX_STORED_TEXT_LENGTH - 1)}${EMOJI}tail`;
    const cutBefore = storedUserText(straddling, undefined).text;
    expect(cutBefore).to.equal('x'.repeat(MAX_STORED_TEXT_LENGTH - 1));
    const ending = `${'x'.repeat(MAX_STORED_TEXT_LENGTH - 2)}${EMOJI}tail`;
    expect(storedUserText(ending, undefined).text).to.equal(
      `${'x'.repeat(MAX_STORED_TEXT_LENGTH - 2)}${EMOJI}`,
    );
    for (const text of [EMOJI.repeat(3_000), `x${EMOJI.repeat(3_000)}`]) {
      const stored = storedUserText(text, undefined);
      expect(LONE_SURROGATE.test(stored.text)).to.equal(false);
      expect(stored.text.length).to.be.within(MAX_STORED_TEXT_LENGTH - 1, MAX_STORED_TEXT_LENGTH);
      expect(stored.metadata).to.deep.equal({ [ORIGINAL_TEXT_LENGTH_KEY]: text.length });
    }
  });

  it('cuts at a limit it is given', () => {
    expect(storedUserText('abcdef', undefined, 4)).to.deep.equal({
      text: 'abcd',
      metadata: { [ORIGINAL_TEXT_LENGTH_KEY]: 6 },
    });
  });
});

describe('Log fields: bounded strings, arrays and nesting', () => {
  it('keeps strings up to 1,000 characters whole', () => {
    expect(MAX_LOG_STRING).to.equal(1_000);
    const text = 'z'.repeat(MAX_LOG_STRING);
    expect(boundedLogString(text)).to.equal(text);
    expect(boundedLogValue('short')).to.equal('short');
  });

  it('cuts a longer string and says how long it was', () => {
    const cut = boundedLogString('z'.repeat(100_000));
    expect(cut.startsWith('z'.repeat(MAX_LOG_STRING))).to.equal(true);
    expect(cut).to.have.length.below(MAX_LOG_STRING + 40);
    expect(cut.endsWith('(100000 characters)')).to.equal(true);
  });

  it('cuts strings inside nested objects and arrays', () => {
    const bounded = boundedLogValue({ a: { b: ['q'.repeat(5_000), 7] }, n: 1, ok: true, none: null });
    const value = bounded as { a: { b: [string, number] }; n: number; ok: boolean; none: null };
    expect(value.a.b[0].endsWith('(5000 characters)')).to.equal(true);
    expect(value.a.b[1]).to.equal(7);
    expect(value).to.deep.include({ n: 1, ok: true, none: null });
  });

  it('shortens arrays over 50 items, saying how many there were', () => {
    const items = Array.from({ length: 1_000 }, (_, index) => index);
    const bounded = boundedLogValue(items) as unknown[];
    expect(bounded).to.have.length(51);
    expect(bounded.slice(0, 50)).to.deep.equal(items.slice(0, 50));
    expect(bounded[50]).to.equal('… (1000 items)');
    expect(boundedLogValue(items.slice(0, 50))).to.deep.equal(items.slice(0, 50));
  });

  it('summarises deep nesting', () => {
    const deep = { l1: { l2: { l3: { l4: { l5: 'hidden' } }, list: [[[['x']]]] } } };
    expect(boundedLogValue(deep)).to.deep.equal({
      l1: { l2: { l3: { l4: '{…}' }, list: ['[…]'] } },
    });
  });

  it('leaves its input untouched', () => {
    const input = { text: 'w'.repeat(2_000), list: Array.from({ length: 60 }, () => 'item') };
    const copy = structuredClone(input);
    boundedLogValue(input);
    expect(input).to.deep.equal(copy);
  });

  it('writes an Error as pino would (type, message, stack), its message and stack bounded', () => {
    const error = new TypeError('e'.repeat(100_000));
    const shown = boundedLogValue({ err: error }) as {
      err: { type: string; message: string; stack: string };
    };
    expect(shown.err.type).to.equal('TypeError');
    expect(shown.err.message.endsWith('(100000 characters)')).to.equal(true);
    expect(shown.err.stack.length).to.be.below(1_100);
  });

  it('keeps at most 50 keys of an object, saying how many there were', () => {
    const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`k${index}`, index]));
    const shown = boundedLogValue({ many }) as { many: Record<string, unknown> };
    expect(Object.keys(shown.many)).to.have.length(51);
    expect(shown.many['…']).to.equal('10000 keys');
  });

  it('never cuts a surrogate pair in half', () => {
    const cut = boundedLogString(`${'x'.repeat(999)}🙂xx`);
    expect(cut.startsWith(`${'x'.repeat(999)}…`)).to.equal(true);
  });
});

/** a pino destination that keeps the lines written to it */
function collectingDestination(): { lines: string[]; write(line: string): void } {
  const lines: string[] = [];
  return {
    lines,
    write(line) {
      lines.push(line);
    },
  };
}

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Security: the process logger writes bounded lines', function () {
  this.timeout(60_000);

  it('writes a 100,000-character field and message as one valid JSON line under 5,000 bytes', () => {
    const destination = collectingDestination();
    const logger = createLogger({ defaultLevel: 'info', destination });
    logger.info({ contextId: 'c'.repeat(100_000) }, 'm'.repeat(100_000));
    expect(destination.lines).to.have.length(1);
    const line = destination.lines[0] ?? '';
    expect(Buffer.byteLength(line)).to.be.below(5_000);
    const parsed = JSON.parse(line) as { contextId: string; msg: string };
    expect(parsed.contextId.endsWith('(100000 characters)')).to.equal(true);
    expect(parsed.msg.endsWith('(100000 characters)')).to.equal(true);
  });

  it('bounds the fields bound to a child logger too (pino bindings bypass the log method hook)', () => {
    const destination = collectingDestination();
    const logger = createLogger({ defaultLevel: 'info', destination });
    withFields(logger, { bound: 'b'.repeat(100_000) }).info({}, 'bound');
    expect(Buffer.byteLength(destination.lines[0] ?? '')).to.be.below(5_000);
  });

  describe('serving requests', () => {
    const destination = collectingDestination();
    let server: ParleyServer;

    before(async () => {
      server = await startSecureServer({ logger: createLogger({ defaultLevel: 'info', destination }) });
    });
    after(() => server.close());

    it('logs a request for a 10,000-character path with the path cut', async () => {
      const response = await fetch(`${server.baseUrl}/webhooks/rest/${'x'.repeat(10_000)}`);
      expect(response.status).to.equal(404);
      const requestLines = () =>
        destination.lines
          .map((line) => JSON.parse(line) as { msg?: string; path?: string; status?: number })
          .filter((entry) => entry.msg === 'http.request' && entry.status === 404);
      await eventually(() => requestLines().length > 0);
      expect(requestLines()[0]?.path?.endsWith('characters)')).to.equal(true);
      for (const line of destination.lines) expect(Buffer.byteLength(line)).to.be.below(5_000);
    });

    it('stores a 10,000-character REST message cut at the cap, with its length noted', async () => {
      const sender = `long-${crypto.randomUUID()}`;
      const answer = await restMessage(server, { sender, message: 'x'.repeat(10_000) });
      expect(answer.status).to.equal(200);
      const user = (await trackerOf(server, sender)).events.find((event) => event.event === 'user');
      expect(user?.text).to.have.length(MAX_STORED_TEXT_LENGTH);
      expect(user?.metadata).to.deep.include({ [ORIGINAL_TEXT_LENGTH_KEY]: 10_000 });
      for (const line of destination.lines) expect(Buffer.byteLength(line)).to.be.below(5_000);
    });
  });
});
