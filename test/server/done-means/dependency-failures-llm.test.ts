/**
 * Done means: the LLM endpoint fails while many conversations talk. The assistant understands free
 * text with CompactLLMCommandGenerator, whose model is a real OpenAI-compatible server (behind a TCP
 * proxy, so it can also be "down"); while 12 clients keep asking in free text, the endpoint refuses
 * connections, stops answering, answers too late, answers 500 or garbage (a failed request: Parley
 * says pattern_internal_error's answer, docs/llm.md §2), or answers text with no command in it (the
 * documented fallback: pattern_cannot_handle). No request hangs or gets a 5xx, every stored
 * conversation is a valid log that can go on, and service comes back by itself when the LLM does.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { ParleyServer } from '../../../src/cli/serve.js';
import { startFakeOpenAi } from '../../support/fake-openai.js';
import type { FakeHandler, FakeOpenAi } from '../../support/fake-openai.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { inspectStore, startProjectServer, writeDoneMeansProject } from './done-means-support.js';
import {
  countOf,
  errorCounts,
  expectValidCountingLogs,
  kindOf,
  loadThroughFailure,
  printFigures,
  recoveryMs,
} from './dependency-load-support.js';

const CONVERSATIONS = 12;
const TIMEOUT_SECONDS = 0.5;
const MAX_RETRIES = 1;
/** the one retry waits 500 ms (the client's first retry delay) */
const RETRY_DELAY_MS = 500;
/** a timeout is not retried; a refused connection or a 5xx is, once */
const ANSWER_WITHIN_MS = TIMEOUT_SECONDS * 1000 * (MAX_RETRIES + 1) + RETRY_DELAY_MS + 3_000;
const MESSAGE = 'please count this one';
const UNDERSTOOD = 'start flow count';

interface Failure {
  readonly name: string;
  readonly title: string;
  /** the fake's answers while failing; none: the proxy refuses connections */
  readonly handler?: FakeHandler;
  /** what every user affected hears */
  readonly heard: 'internal_error' | 'cannot_handle';
}

const FAILURES: readonly Failure[] = [
  { name: 'refused', title: 'down (connection refused)', heard: 'internal_error' },
  {
    name: 'hang',
    title: 'never answering (timeout)',
    handler: () => ({ hang: true }),
    heard: 'internal_error',
  },
  {
    name: 'slow',
    title: `answering after 1500 ms (timeout ${TIMEOUT_SECONDS} s)`,
    handler: () => ({ content: UNDERSTOOD, delayMs: 1_500 }),
    heard: 'internal_error',
  },
  {
    name: 'status500',
    title: 'answering 500',
    handler: () => ({ status: 500, body: { error: { message: 'overloaded' } } }),
    heard: 'internal_error',
  },
  {
    name: 'garbage',
    title: 'answering a body that is not a chat completion',
    handler: () => ({ status: 200, body: '<html>502 Bad Gateway</html>' }),
    heard: 'internal_error',
  },
  {
    name: 'nonsense',
    title: 'answering text with no command in it',
    handler: () => 'I would love to help you with that!',
    heard: 'cannot_handle',
  },
];

const counted = (texts: string[]) => countOf(texts) !== undefined;

describe('Done means: the LLM endpoint fails under a REST load', function () {
  this.timeout(60_000);
  let fake: FakeOpenAi;
  let proxy: TcpProxy;
  let server: ParleyServer;
  let root: string;

  before(async () => {
    fake = await startFakeOpenAi(() => UNDERSTOOD);
    const fakePort = Number(new URL(fake.apiBase).port);
    proxy = await TcpProxy.start({ targetHost: '127.0.0.1', targetPort: fakePort });
    root = writeDoneMeansProject(
      `model_groups:
  - id: command_llm
    models:
      - provider: self-hosted
        model: fake
        api_base: http://127.0.0.1:${proxy.port}/v1
        timeout: ${TIMEOUT_SECONDS}
        max_retries: ${MAX_RETRIES}
`,
      {
        config: `
          recipe: default.v1
          language: en
          assistant_id: llm-failures
          pipeline:
            - name: CompactLLMCommandGenerator
              llm:
                model_group: command_llm
        `,
      },
    );
    server = await startProjectServer(root);
  });

  after(async () => {
    await server?.close();
    await proxy?.close();
    await fake?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  for (const failure of FAILURES) {
    it(`${failure.title}: ${failure.heard} answers, no hang, valid logs, recovery by itself`, async () => {
      const ids = Array.from({ length: CONVERSATIONS }, (_, index) => `llm-${failure.name}-${index}`);
      const { entries, fixedAt } = await loadThroughFailure({
        baseUrl: server.baseUrl,
        conversations: ids,
        message: MESSAGE,
        fail: () => (failure.handler ? fake.answer(failure.handler) : proxy.pause('refuse')),
        fix: () => {
          fake.answer(() => UNDERSTOOD);
          return proxy.resume();
        },
      });

      const kinds = entries.map((entry) => kindOf(entry, counted));
      expect(
        kinds.filter((kind) => kind !== 'ok' && kind !== failure.heard),
        `every answer is the work done or ${failure.heard} (no other status, no network error)`,
      ).to.deep.equal([]);
      const whileFailing = entries.filter(
        (entry) => entry.sentIn === 'failing' && entry.answeredIn === 'failing',
      );
      expect(whileFailing.length, 'answers while failing').to.be.at.least(CONVERSATIONS * 4);
      expect(
        whileFailing
          .filter((entry) => kindOf(entry, counted) !== failure.heard)
          .map((entry) => entry.reply?.text),
        `every user affected hears ${failure.heard}`,
      ).to.deep.equal([]);
      const slowest = Math.max(
        ...entries.filter((entry) => entry.sentIn === 'failing').map((entry) => entry.reply!.ms),
      );
      expect(slowest, 'no request hangs').to.be.lessThan(ANSWER_WITHIN_MS);
      expect(
        entries.filter((entry) => entry.sentIn === 'fixed' && kindOf(entry, counted) !== 'ok'),
        'everything works again after the fix',
      ).to.deep.equal([]);
      const recovery = recoveryMs(entries, fixedAt, (entry) => kindOf(entry, counted) === 'ok');

      const store = inspectStore(root);
      try {
        await expectValidCountingLogs({
          baseUrl: server.baseUrl,
          root,
          store,
          entries,
          conversations: ids,
          message: MESSAGE,
        });
      } finally {
        await store.close();
      }
      printFigures({
        dependency: 'LLM endpoint',
        failure: failure.title,
        turns: entries.length,
        errors: errorCounts(kinds),
        recoveryMs: recovery,
        slowestMs: slowest,
      });
      expect(recovery, 'recovered').to.be.lessThan(5_000);
    });
  }
});
