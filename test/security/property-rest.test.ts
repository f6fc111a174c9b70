/**
 * Property-based tests of the REST channel (`POST /webhooks/rest/webhook`): for random, mutated and
 * malformed bodies and any content type it never answers 5xx nor crashes; it answers the bot's
 * messages for the sender or refuses in Rasa's error body, a refusal touches no tracker and an answer
 * only the sender's, no prototype is polluted, and it goes on serving.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { isUtf8 } from 'node:buffer';
import type { ParleyServer } from '../../src/cli/serve.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import {
  ProcessWatch,
  assertProperty,
  contentType,
  countChanges,
  deepNesting,
  hugeString,
  isRasaError,
  jsonValue,
  mutated,
  nastyNumber,
  nastyString,
  pollutionPayload,
  pollutionProblems,
  rawJsonText,
  sendRaw,
  shortly,
  storeCounts,
  truncated,
  withInvalidUtf8,
} from './property-arbitraries.js';
import type { RawAnswer } from './property-arbitraries.js';
import { startSecureServer, stillServes } from './support.js';

interface RestCall {
  readonly body: Buffer;
  readonly contentType?: string;
  readonly stream: boolean;
}

let sequence = 0;
function validBody(): Record<string, unknown> {
  sequence += 1;
  return {
    sender: `rest-user-${sequence}`,
    message: sequence % 2 === 0 ? 'hello' : 'I want to send money',
    metadata: { client: 'property', nested: { depth: [1, 2] } },
    input_channel: 'rest',
  };
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value) ?? '', 'utf8');

/** the sender a body names when it is readable JSON, else undefined */
function senderOf(body: Buffer): unknown {
  try {
    if (!isUtf8(body)) return undefined;
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)['sender']
      : undefined;
  } catch {
    return undefined;
  }
}

/** the bot messages of an answer: a JSON array, or NDJSON lines when streamed */
function messagesOf(answer: RawAnswer, stream: boolean): unknown[] | undefined {
  if (!stream) return Array.isArray(answer.json) ? answer.json : undefined;
  return answer.text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

const KEYS = ['sender', 'message', 'metadata', 'input_channel', 'text'];

const randomCall: fc.Arbitrary<RestCall> = fc
  .record({
    text: fc.oneof(
      { weight: 1, arbitrary: rawJsonText(KEYS) },
      {
        weight: 3,
        arbitrary: fc
          .record({
            sender: fc.option(fc.oneof(nastyString, nastyNumber, jsonValue), { freq: 4 }),
            message: fc.option(fc.oneof(nastyString, jsonValue), { freq: 6 }),
            metadata: fc.option(fc.oneof(pollutionPayload, jsonValue, nastyString), { freq: 2 }),
            input_channel: fc.option(fc.oneof(nastyString, jsonValue), { freq: 2 }),
          })
          .map((fields) =>
            JSON.stringify(Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null))),
          ),
      },
    ),
    contentType,
    stream: fc.boolean(),
  })
  .map(({ text, contentType: type, stream }) => ({
    body: Buffer.from(text, 'utf8'),
    ...(type !== undefined ? { contentType: type } : {}),
    stream,
  }));

const brokenCall: fc.Arbitrary<RestCall> = fc
  .record({
    how: fc.constantFrom('truncate', 'invalid-utf8', 'empty', 'deep', 'huge'),
    deep: deepNesting,
    huge: hugeString,
    contentType,
    stream: fc.boolean(),
  })
  .chain(({ how, deep, huge, contentType: type, stream }) => {
    const text = JSON.stringify(validBody());
    const body: fc.Arbitrary<Buffer> =
      how === 'truncate'
        ? truncated(text).map((cut) => Buffer.from(cut, 'utf8'))
        : how === 'invalid-utf8'
          ? withInvalidUtf8(text)
          : fc.constant(
              how === 'empty'
                ? Buffer.alloc(0)
                : how === 'deep'
                  ? Buffer.from(
                      text.replace(/}$/, `,"metadata":${deep.startsWith('{') ? deep : `{"a":${deep}}`}}`),
                    )
                  : json({ ...validBody(), message: huge }),
            );
    return body.map((bytes) => ({
      body: bytes,
      ...(type !== undefined ? { contentType: type } : {}),
      stream,
    }));
  });

const mutatedCall: fc.Arbitrary<{ call: RestCall; changes: unknown }> = fc
  .record({ changed: mutated(validBody), stream: fc.boolean() })
  .map(({ changed, stream }) => ({
    call: { body: json(changed.body), contentType: 'application/json', stream },
    changes: changed.changes,
  }));

describe('Property: the REST channel under random and hostile input', function () {
  this.timeout(120_000);
  const store = new MemoryTrackerStore();
  const watch = new ProcessWatch();
  let server: ParleyServer;

  before(async () => {
    watch.start();
    server = await startSecureServer({ auth: false, serve: { trackerStore: store } });
  });

  after(async () => {
    watch.stop();
    await server?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'passed') expect(await stillServes(server)).to.equal(true);
  });

  /** one message: bot messages for the sender or a Rasa refusal that changed nothing */
  async function check(call: RestCall, what: string): Promise<void> {
    const before = await storeCounts(store);
    const answer = await sendRaw(server.baseUrl, {
      method: 'POST',
      path: `/webhooks/rest/webhook${call.stream ? '?stream=true' : ''}`,
      body: call.body,
      ...(call.contentType !== undefined ? { contentType: call.contentType } : {}),
    });
    const said = `${what}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`;
    expect(answer.status, said).to.be.below(500);
    const changes = countChanges(before, await storeCounts(store));
    if (answer.status === 200) {
      const messages = messagesOf(answer, call.stream);
      expect(messages, said).to.be.an('array');
      const sender = senderOf(call.body);
      expect(changes.length, `${said}: ${changes.join('; ')}`).to.be.at.most(1);
      if (typeof sender === 'string') {
        for (const message of messages ?? [])
          expect((message as Record<string, unknown>)['recipient_id'], said).to.equal(sender);
        if (changes.length === 1)
          expect(changes[0], said).to.satisfy((line: string) => line.startsWith(JSON.stringify(sender)));
      }
    } else {
      expect(answer.status, said).to.be.within(400, 499);
      expect(isRasaError(answer), `${said}: not Rasa's error body`).to.equal(true);
      expect(changes, `${said}: refused, yet`).to.deep.equal([]);
    }
    expect(pollutionProblems(), what).to.deep.equal([]);
    expect(watch.problems, what).to.deep.equal([]);
  }

  it('answers random bodies (duplicate keys, odd numbers, pollution keys, wrong types, any content type) with bot messages or a 4xx, never a changed tracker on refusal', async () => {
    await assertProperty(
      fc.asyncProperty(randomCall, async (call) => check(call, `random ${shortly(call.body)}`)),
      250,
    );
  });

  it('refuses truncated, non-UTF-8, empty, too deep and too large bodies with a 4xx and touches no tracker', async () => {
    await assertProperty(
      fc.asyncProperty(brokenCall, async (call) => {
        await check(call, `broken ${shortly(call.body)}`);
      }),
      150,
    );
  });

  it('refuses a body that is not UTF-8 with 400 (JSON text is UTF-8; U+FFFD would merge senders)', async () => {
    await assertProperty(
      fc.asyncProperty(withInvalidUtf8(JSON.stringify(validBody())), async (body) => {
        const before = await storeCounts(store);
        const answer = await sendRaw(server.baseUrl, {
          method: 'POST',
          path: '/webhooks/rest/webhook',
          body,
          contentType: 'application/json',
        });
        expect(answer.status, `${shortly(body)}: ${answer.text}`).to.equal(400);
        expect(isRasaError(answer)).to.equal(true);
        expect(countChanges(before, await storeCounts(store))).to.deep.equal([]);
      }),
      60,
    );
  });

  it('answers mutated valid messages (a field dropped, retyped, blown up, a pollution key added) with bot messages or a 4xx, never 5xx', async () => {
    await assertProperty(
      fc.asyncProperty(mutatedCall, async ({ call, changes }) =>
        check(call, `mutated ${shortly(call.body)} by ${shortly(changes)}`),
      ),
      250,
    );
  });
});
