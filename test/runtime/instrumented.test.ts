import { expect } from 'chai';
import { AppError } from '../../src/core/errors.js';
import type { ActionRequest, LockStore } from '../../src/core/ports.js';
import { actionKindOf } from '../../src/runtime/instrumented-action-runner.js';
import type { ActionKind, CallOutcome } from '../../src/runtime/instrumented-action-runner.js';
import { instrumentLockStore, instrumentTrackerStore } from '../../src/runtime/instrumented-stores.js';
import type { StoreKind, StoreOperation } from '../../src/runtime/instrumented-stores.js';
import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeAgent } from '../../src/cli/compose.js';
import type { Command } from '../../src/core/commands/types.js';
import { InstrumentedActionRunner } from '../../src/runtime/instrumented-action-runner.js';
import { inlineAssistant } from '../support/inline-assistant.js';
import { deferred } from '../support/timing.js';

interface StoreCall {
  store: StoreKind;
  operation: StoreOperation;
  seconds: number;
  outcome: CallOutcome;
}

function recorder(): {
  calls: StoreCall[];
  storeOperationFinished: (...args: [StoreKind, StoreOperation, number, CallOutcome]) => void;
} {
  const calls: StoreCall[] = [];
  return {
    calls,
    storeOperationFinished: (store, operation, seconds, outcome) =>
      calls.push({ store, operation, seconds, outcome }),
  };
}

describe('instrumented stores', () => {
  it('times each tracker call and passes data through, keeping optional methods as the store has them', async () => {
    const observer = recorder();
    const store = instrumentTrackerStore(new MemoryTrackerStore(), observer);
    expect(store.remove).to.be.a('function');
    await store.append('c1', [{ event: 'action', name: 'action_listen', timestamp: 1 }], {
      expectedCount: 0,
    });
    const recent = await store.loadRecent('c1');
    expect(recent.eventCount).to.equal(1);
    expect(await store.loadAll('c1')).to.have.length(1);
    await store.remove?.('c1');
    expect(observer.calls.map((call) => `${call.store}/${call.operation}/${call.outcome}`)).to.deep.equal([
      'tracker/append/ok',
      'tracker/loadRecent/ok',
      'tracker/loadAll/ok',
      'tracker/remove/ok',
    ]);

    const bare = instrumentTrackerStore(
      {
        loadRecent: new MemoryTrackerStore().loadRecent,
        loadAll: async () => [],
        append: async () => undefined,
      },
      observer,
    );
    expect(bare.remove).to.equal(undefined);
    expect(bare.close).to.equal(undefined);
  });

  it('reports a failing tracker call as an error and rethrows it unchanged', async () => {
    const observer = recorder();
    const store = instrumentTrackerStore(new MemoryTrackerStore(), observer);
    await store.append('c1', [{ event: 'action', name: 'action_listen', timestamp: 1 }], {
      expectedCount: 0,
    });
    const conflict = await store
      .append('c1', [{ event: 'action', name: 'action_listen', timestamp: 2 }], { expectedCount: 0 })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(conflict).to.be.instanceOf(AppError).with.property('code', 'TRACKER_CONFLICT');
    expect(observer.calls.at(-1)).to.include({ store: 'tracker', operation: 'append', outcome: 'error' });
  });

  it('reports the wait for a lock, not the time the turn holds it', async () => {
    const observer = recorder();
    let clockMs = 0;
    const locks = instrumentLockStore(new MemoryLockStore(), observer, () => clockMs);
    const inside = deferred();
    const release = deferred();
    const first = locks.withLock('c1', async () => {
      inside.resolve();
      await release.promise;
      return 'first';
    });
    await inside.promise; // the first turn took the lock at 0 ms
    clockMs = 2_000;
    const second = locks.withLock('c1', async () => 'second'); // asks at 2 s, queued behind the first
    clockMs = 9_000;
    release.resolve(); // the first turn held the lock for 9 s; the second waited 7 s
    expect(await Promise.all([first, second])).to.deep.equal(['first', 'second']);
    expect(observer.calls).to.deep.equal([
      { store: 'lock', operation: 'acquire', seconds: 0, outcome: 'ok' },
      { store: 'lock', operation: 'acquire', seconds: 7, outcome: 'ok' },
    ]);
  });

  it('counts a lock that cannot be taken as a lock error, and a failing turn under the lock as none', async () => {
    const observer = recorder();
    const refusing: LockStore = {
      withLock: () => Promise.reject(new AppError({ code: 'LOCK_TIMEOUT', message: 'busy' })),
    };
    const timedOut = await instrumentLockStore(refusing, observer)
      .withLock('c1', async () => 'never')
      .catch((error: unknown) => error);
    expect(timedOut).to.have.property('code', 'LOCK_TIMEOUT');
    const turnFailed = await instrumentLockStore(new MemoryLockStore(), observer)
      .withLock('c1', () => Promise.reject(new Error('turn failed')))
      .catch((error: unknown) => error);
    expect(turnFailed).to.have.property('message', 'turn failed');
    expect(observer.calls.map((call) => call.outcome)).to.deep.equal(['error', 'ok']);
  });
});

const startHello: Command = { command: 'start flow', flow: 'hello' };

describe('instrumented action runner', () => {
  const assistant = inlineAssistant({
    domain: `
      version: "3.1"
      actions: [action_custom, action_restart]
      responses:
        utter_hi:
          - text: hi
    `,
    flows: `
      flows:
        hello:
          description: greet
          steps:
            - action: utter_hi
            - action: action_custom
    `,
  });

  it('tells the kinds apart in the order the runner resolves them', () => {
    expect(actionKindOf(assistant, 'utter_hi')).to.equal('response');
    expect(actionKindOf(assistant, 'action_session_start')).to.equal('builtin');
    expect(actionKindOf(assistant, 'action_cancel_flow')).to.equal('builtin');
    // a declared custom action overriding a built-in runs as a custom action
    expect(actionKindOf(assistant, 'action_restart')).to.equal('custom');
    expect(actionKindOf(assistant, 'action_custom')).to.equal('custom');
    expect(actionKindOf(assistant, 'utter_nothing')).to.equal('unknown');
  });

  it('reports every run of a real conversation with its kind and outcome (composeAgent wiring)', async () => {
    const runs: Array<[string, CallOutcome]> = [];
    const agent = await composeAgent({
      assistant,
      projectRoot: mkdtempSync(join(tmpdir(), 'parley-no-actions-')),
      stubs: new Map([['action_custom', { events: [], responses: [] }]]),
      actionObserver: { actionFinished: (kind, _seconds, outcome) => runs.push([kind, outcome]) },
    });
    await agent.handleMessage({ conversationId: 'c1', text: '/hello', commands: [startHello] });
    expect(runs).to.deep.include.members([
      ['builtin', 'ok'], // action_session_start
      ['response', 'ok'], // utter_hi
      ['custom', 'ok'], // action_custom (stubbed)
    ]);
  });

  it('reports an action runner that throws as an error and rethrows', async () => {
    const runs: Array<[ActionKind, CallOutcome]> = [];
    const runner = new InstrumentedActionRunner({
      inner: { run: () => Promise.reject(new Error('runner broke')) },
      observer: { actionFinished: (kind, _seconds, outcome) => runs.push([kind, outcome]) },
      assistant,
    });
    // the failing inner runner reads nothing but the name
    const request = { actionName: 'utter_hi', conversationId: 'c1' } as ActionRequest;
    const thrown = await runner.run(request).catch((error: unknown) => error);
    expect(thrown).to.have.property('message', 'runner broke');
    expect(runs).to.deep.equal([['response', 'error']]);
  });
});
