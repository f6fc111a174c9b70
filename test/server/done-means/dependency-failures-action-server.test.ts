/**
 * Done means: the action server fails while many conversations talk. A real action server (behind a
 * TCP proxy, so it can also be "down") runs the counting action; while 12 clients keep asking for it,
 * it stops answering, answers too late, answers 500, or answers garbage, then is fixed. Every affected
 * user hears pattern_internal_error's answer (a 200: the failure is part of the conversation), no
 * request hangs or gets a 500, every stored conversation is a valid log that can go on, and service
 * comes back by itself: the time from the fix to the first custom action that works is measured.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { ParleyServer } from '../../../src/cli/serve.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { inspectStore, startProjectServer, writeDoneMeansProject } from './done-means-support.js';
import type { ActionServerMode, ScriptedActionServer } from './dependency-load-support.js';
import {
  countOf,
  errorCounts,
  expectValidCountingLogs,
  kindOf,
  loadThroughFailure,
  printFigures,
  recoveryMs,
  startScriptedActionServer,
} from './dependency-load-support.js';

const CONVERSATIONS = 12;
const TIMEOUT_SECONDS = 0.5;
/** the action server's slow answers come this late: well beyond the timeout */
const SLOW_MS = 1_500;
/** an answer while failing may take the timeout and some scheduling on a busy machine, never more */
const ANSWER_WITHIN_MS = TIMEOUT_SECONDS * 1000 + 3_000;

interface Failure {
  readonly mode: ActionServerMode | 'refused';
  readonly title: string;
}

const FAILURES: readonly Failure[] = [
  { mode: 'refused', title: 'down (connection refused)' },
  { mode: 'hang', title: 'never answering (timeout)' },
  { mode: 'slow', title: `answering after ${SLOW_MS} ms (timeout ${TIMEOUT_SECONDS} s)` },
  { mode: 'status500', title: 'answering 500' },
  { mode: 'not-json', title: 'answering a body that is not JSON' },
  { mode: 'wrong-shape', title: 'answering JSON of the wrong shape' },
  { mode: 'huge', title: 'answering an 8 MB body of the wrong shape' },
];

const MESSAGE = '/count';
const counted = (texts: string[]) => countOf(texts) !== undefined;

describe('Done means: the action server fails under a REST load', function () {
  this.timeout(60_000);
  let actions: ScriptedActionServer;
  let proxy: TcpProxy;
  let server: ParleyServer;
  let root: string;

  before(async () => {
    actions = await startScriptedActionServer(SLOW_MS);
    proxy = await TcpProxy.start({ targetHost: '127.0.0.1', targetPort: actions.port });
    root = writeDoneMeansProject('', {
      actionEndpoint: `  url: http://127.0.0.1:${proxy.port}/webhook\n  timeout: ${TIMEOUT_SECONDS}`,
    });
    server = await startProjectServer(root);
  });

  after(async () => {
    await server?.close();
    await proxy?.close();
    await actions?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  for (const failure of FAILURES) {
    it(`${failure.title}: internal-error answers, no hang, valid logs, recovery by itself`, async () => {
      const ids = Array.from({ length: CONVERSATIONS }, (_, index) => `${failure.mode}-${index}`);
      const { entries, fixedAt } = await loadThroughFailure({
        baseUrl: server.baseUrl,
        conversations: ids,
        message: MESSAGE,
        fail: () => (failure.mode === 'refused' ? proxy.pause('refuse') : (actions.mode = failure.mode)),
        fix: () => {
          actions.mode = 'ok';
          return proxy.resume();
        },
      });

      const kinds = entries.map((entry) => kindOf(entry, counted));
      expect(
        kinds.filter((kind) => kind !== 'ok' && kind !== 'internal_error'),
        'every answer is the work done or pattern_internal_error (no other status, no network error)',
      ).to.deep.equal([]);
      const whileFailing = entries.filter(
        (entry) => entry.sentIn === 'failing' && entry.answeredIn === 'failing',
      );
      expect(whileFailing.length, 'answers while failing').to.be.at.least(CONVERSATIONS * 4);
      expect(
        whileFailing
          .filter((entry) => kindOf(entry, counted) !== 'internal_error')
          .map((entry) => entry.reply?.text),
        'every user affected hears the internal error',
      ).to.deep.equal([]);
      const slowest = Math.max(
        ...entries.filter((entry) => entry.sentIn === 'failing').map((entry) => entry.reply!.ms),
      );
      expect(slowest, 'no request hangs').to.be.lessThan(ANSWER_WITHIN_MS);
      expect(
        entries.filter((entry) => entry.sentIn === 'fixed').map((entry) => kindOf(entry, counted)),
        'everything works again after the fix',
      ).to.satisfy((seen: string[]) => seen.every((kind) => kind === 'ok'));
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
        dependency: 'action server',
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
