import { expect } from 'chai';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DEFAULT_LLM_TIMEOUT_SECONDS, OpenAiClient } from '../../../src/understanding/llm/openai-client.js';
import type { ChatResult, OpenAiClientOptions } from '../../../src/understanding/llm/openai-client.js';
import { startFakeOpenAi } from '../../support/fake-openai.js';
import type { FakeOpenAi } from '../../support/fake-openai.js';

const HELLO = [{ role: 'user' as const, content: 'Say hello' }];

function client(apiBase: string, options: Partial<OpenAiClientOptions> = {}): OpenAiClient {
  return new OpenAiClient({ apiBase, model: 'fake-model', retryDelayMs: 5, ...options });
}

function text(result: ChatResult): string {
  if (!result.ok) throw new Error(`expected text, got ${result.error.code}: ${result.error.message}`);
  return result.text;
}

function error(result: ChatResult) {
  if (result.ok) throw new Error(`expected an error, got text ${JSON.stringify(result.text)}`);
  return result.error;
}

/** A port nothing listens on: opened, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('OpenAI-compatible chat client', () => {
  let fake: FakeOpenAi;

  beforeEach(async () => {
    fake = await startFakeOpenAi();
  });

  afterEach(async () => {
    await fake.close();
  });

  it('posts the chat request and returns the first choice', async () => {
    fake.answer(() => 'start flow transfer_money');
    const result = await client(fake.apiBase, {
      apiKey: 'sk-test',
      temperature: 0.3,
      headers: { 'X-Team': 'bank' },
      extraBody: { max_tokens: 64 },
    }).complete(HELLO);
    expect(text(result)).to.equal('start flow transfer_money');
    expect(fake.requests).to.have.length(1);
    const request = fake.requests[0];
    expect(request?.path).to.equal('/v1/chat/completions');
    expect(request?.headers['authorization']).to.equal('Bearer sk-test');
    expect(request?.headers['x-team']).to.equal('bank');
    expect(request?.body).to.deep.equal({
      max_tokens: 64,
      model: 'fake-model',
      messages: HELLO,
      temperature: 0.3,
    });
  });

  it('sends no Authorization header without a key, and tolerates a trailing slash in api_base', async () => {
    await client(`${fake.apiBase}/`).complete(HELLO);
    expect(fake.requests[0]?.path).to.equal('/v1/chat/completions');
    expect(fake.requests[0]?.headers).not.to.have.property('authorization');
  });

  it('sends the key in the header and the query a provider asks for (Azure: api-key, api-version)', async () => {
    fake.answer(() => 'ok');
    const root = fake.apiBase.replace(/\/v1$/u, '');
    const azure = client(`${root}/openai/deployments/gpt4o-prod`, {
      apiKey: 'az-key',
      keyHeader: 'api-key',
      query: { 'api-version': '2024-06-01' },
    });
    expect(text(await azure.complete(HELLO))).to.equal('ok');
    const request = fake.requests[0];
    expect(request?.path).to.equal('/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-06-01');
    expect(request?.headers['api-key']).to.equal('az-key');
    expect(request?.headers).not.to.have.property('authorization');
  });

  it('retries a 429 and a 500 with backoff, then returns the answer', async () => {
    fake.answer(({ index }) =>
      index === 0
        ? { status: 429, body: { error: 'slow down' } }
        : index === 1
          ? { status: 500 }
          : 'offtopic reply',
    );
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const result = await client(fake.apiBase, { retryDelayMs: 20, sleep }).complete(HELLO);
    expect(text(result)).to.equal('offtopic reply');
    expect(fake.requests).to.have.length(3);
    expect(waits).to.deep.equal([20, 40]);
  });

  it('honours Retry-After, up to the longest wait', async () => {
    fake.answer(({ index }) => (index === 0 ? { status: 429, headers: { 'Retry-After': '0.2' } } : 'ok'));
    const started = performance.now();
    expect(text(await client(fake.apiBase, { retryDelayMs: 1 }).complete(HELLO))).to.equal('ok');
    // really waited the 200 ms asked for, not the 1 ms of its own backoff (a timer may fire a
    // little early when the event loop's clock is stale, never by much)
    expect(performance.now() - started).to.be.at.least(150);
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const asked = fake.requests.length;
    fake.answer(({ index }) => (index === asked ? { status: 429, headers: { 'Retry-After': '60' } } : 'ok'));
    await client(fake.apiBase, { maxRetryDelayMs: 8_000, sleep }).complete(HELLO);
    expect(waits, 'capped at the longest wait').to.deep.equal([8_000]);
  });

  it('gives up after max_retries with LLM_UNREACHABLE and the last status', async () => {
    fake.answer(() => ({ status: 503, body: 'maintenance' }));
    const failed = error(await client(fake.apiBase, { maxRetries: 1 }).complete(HELLO));
    expect(failed.code).to.equal('LLM_UNREACHABLE');
    expect(failed).to.include({ status: 503, attempts: 2 });
    expect(failed.message).to.contain('maintenance');
    expect(fake.requests).to.have.length(2);
  });

  it('times out a server that does not answer, without retrying', async () => {
    fake.answer(() => ({ hang: true }));
    const started = performance.now();
    const failed = error(await client(fake.apiBase, { timeoutSeconds: 0.2 }).complete(HELLO));
    expect(failed.code).to.equal('LLM_TIMEOUT');
    // its 200 ms, not the default 7 s
    expect(performance.now() - started).to.be.within(150, (DEFAULT_LLM_TIMEOUT_SECONDS * 1000) / 2);
    expect(fake.requests).to.have.length(1);
  });

  it('waits for a slow answer within the timeout', async () => {
    fake.answer(() => ({ content: 'repeat message', delayMs: 100 }));
    expect(text(await client(fake.apiBase, { timeoutSeconds: 2 }).complete(HELLO))).to.equal(
      'repeat message',
    );
  });

  it('reports LLM_UNREACHABLE for a port nobody listens on, after retrying', async () => {
    const failed = error(
      await client(`http://127.0.0.1:${await closedPort()}/v1`, { maxRetries: 2 }).complete(HELLO),
    );
    expect(failed.code).to.equal('LLM_UNREACHABLE');
    expect(failed.attempts).to.equal(3);
    expect(failed.message).to.contain('Could not reach');
  });

  it('reports LLM_UNREACHABLE for an api_base that is not a URL, without throwing', async () => {
    const failed = error(await client('not a url', { maxRetries: 0 }).complete(HELLO));
    expect(failed.code).to.equal('LLM_UNREACHABLE');
  });

  const badBodies: [string, unknown][] = [
    ['a body that is not JSON', '<html>gateway</html>'],
    ['JSON without choices', { result: 'start flow x' }],
    ['empty choices', { choices: [] }],
    ['a choice without a message', { choices: [{ text: 'start flow x' }] }],
    ['content that is neither text nor parts', { choices: [{ message: { content: 42 } }] }],
  ];
  for (const [what, body] of badBodies) {
    it(`reports LLM_BAD_RESPONSE for ${what}`, async () => {
      fake.answer(() => ({ status: 200, body }));
      const failed = error(await client(fake.apiBase).complete(HELLO));
      expect(failed.code).to.equal('LLM_BAD_RESPONSE');
      expect(fake.requests).to.have.length(1);
    });
  }

  it('reads a message without text as an empty answer, and joins text parts', async () => {
    fake.answer(() => ({ content: null }));
    expect(text(await client(fake.apiBase).complete(HELLO))).to.equal('');
    fake.answer(() => ({
      status: 200,
      body: { choices: [{ message: { content: [{ type: 'text', text: 'cancel ' }, { text: 'flow' }] } }] },
    }));
    expect(text(await client(fake.apiBase).complete(HELLO))).to.equal('cancel flow');
  });

  it('reports a refused key as LLM_NOT_CONFIGURED, without retrying', async () => {
    fake.answer(() => ({ status: 401, body: { error: { message: 'Incorrect API key provided' } } }));
    const failed = error(await client(fake.apiBase).complete(HELLO));
    expect(failed.code).to.equal('LLM_NOT_CONFIGURED');
    expect(failed.status).to.equal(401);
    expect(failed.message).to.contain('Incorrect API key');
    expect(fake.requests).to.have.length(1);
  });

  it('reports another client error as LLM_BAD_RESPONSE', async () => {
    fake.answer(() => ({ status: 400, body: { error: { message: 'temperature is not supported' } } }));
    expect(error(await client(fake.apiBase).complete(HELLO)).code).to.equal('LLM_BAD_RESPONSE');
  });
});
