/**
 * A claim whose release the store refused (an outage at the end of a turn) must not leave its context
 * busy until the lease lapses: the next message here releases it first, and a retry releases it for
 * the other processes as soon as the store answers again.
 */
import { expect } from 'chai';
import { ContextClaims } from '../../src/a2a/context-claims.js';
import { A2aError } from '../../src/a2a/a2a-error.js';
import { MemoryTaskStore } from '../../src/a2a/tasks/memory/memory-task-store.js';
import type { ClaimRelease, TaskStore } from '../../src/a2a/tasks/task-store.js';
import { recordingLogger } from '../support/recording-logger.js';
import { withOverrides } from './store-overrides.js';
import { waitFor } from '../support/timing.js';

const LEASE_MS = 60_000;
const IDENTITY = { key: 'a2a:caller:ctx', contextId: 'ctx', owner: 'caller' };

/** a memory store whose releases fail while `down` is set */
function flakyStore(): { store: TaskStore; setDown(down: boolean): void; releases: () => number } {
  const inner = new MemoryTaskStore({ replayTtlSeconds: 60, now: Date.now });
  let down = false;
  let releases = 0;
  const store = withOverrides(inner, {
    releaseContext: async (key, holder) => {
      releases += 1;
      if (down) throw new Error('connection refused');
      return inner.releaseContext(key, holder);
    },
  });
  return { store, setDown: (value) => void (down = value), releases: () => releases };
}

function claimsOn(store: TaskStore, holder: string): ContextClaims {
  return new ContextClaims({
    store,
    holder,
    maxContexts: 0,
    now: Date.now,
    logger: recordingLogger(),
    leaseMs: LEASE_MS,
  });
}

/** a turn held and over; returns what ran after it */
async function turnOver(claims: ContextClaims): Promise<string[]> {
  await claims.claim(IDENTITY);
  const after: string[] = [];
  claims.hold(IDENTITY.key, Promise.resolve(), async () => void after.push('after'));
  // let the release (and its failure) happen
  await new Promise((resolve) => setTimeout(resolve, 20));
  return after;
}

describe('context claims after a failed release', function () {
  this.timeout(10_000);
  const made: ContextClaims[] = [];
  afterEach(() => {
    for (const claims of made.splice(0)) claims.close();
  });

  it('lets the next message on this process claim the context once the store is back', async () => {
    const { store, setDown } = flakyStore();
    const claims = claimsOn(store, 'here');
    made.push(claims);
    setDown(true);
    // the work is over although its claim is not released yet: what follows it runs
    expect(await turnOver(claims)).to.deep.equal(['after']);
    setDown(false);
    const next = await claims.claim(IDENTITY);
    expect(next).to.deep.include({ kind: 'claimed', evictions: [] });
  });

  it('answers with the store error, not CONTEXT_BUSY, while the store is still away', async () => {
    const { store, setDown } = flakyStore();
    const claims = claimsOn(store, 'here');
    made.push(claims);
    setDown(true);
    await turnOver(claims);
    const refused = await claims.claim(IDENTITY).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(Error);
    expect(refused instanceof A2aError && refused.reason === 'CONTEXT_BUSY').to.equal(false);
  });

  it('releases the context for another process by itself once the store answers', async () => {
    const { store, setDown, releases } = flakyStore();
    const here = claimsOn(store, 'here');
    const elsewhere = claimsOn(store, 'elsewhere');
    made.push(here, elsewhere);
    setDown(true);
    await turnOver(here);
    const busy = await elsewhere.claim(IDENTITY).catch((error: unknown) => error);
    expect(busy instanceof A2aError && busy.reason).to.equal('CONTEXT_BUSY');
    setDown(false);
    const before = releases();
    await waitFor(() => releases() > before, 'a retried release', 5_000);
    const claimed = await elsewhere.claim(IDENTITY);
    expect(claimed).to.deep.include({ kind: 'claimed', taskIds: [] });
  });
});

describe('context claims ended by the work’s last write (ClaimHold.releaseIn)', function () {
  this.timeout(10_000);
  const made: ContextClaims[] = [];
  afterEach(() => {
    for (const claims of made.splice(0)) claims.close();
  });

  /** a turn held on the context whose last write runs through releaseIn with `write` */
  async function heldTurn(
    claims: ContextClaims,
    write: (release: ClaimRelease | undefined) => Promise<void>,
  ): Promise<{ after: string[]; written: Promise<void>; released: Promise<void> }> {
    await claims.claim(IDENTITY);
    const after: string[] = [];
    let finish: () => void = () => undefined;
    const work = new Promise<void>((resolve) => (finish = resolve));
    const hold = claims.hold(IDENTITY.key, work, async () => void after.push('after'));
    const written = hold.releaseIn(write);
    void written.then(finish, finish);
    return { after, written, released: hold.released };
  }

  it('hands the claim to the write, releases nothing more, and runs `after` once it is written', async () => {
    const { store, releases } = flakyStore();
    const claims = claimsOn(store, 'here');
    made.push(claims);
    const handed: (ClaimRelease | undefined)[] = [];
    const { after, written, released } = await heldTurn(claims, async (release) => {
      handed.push(release);
      if (release) await store.releaseContext(release.key, release.holder);
    });
    await written;
    await released;
    await waitFor(() => after.length > 0, 'the work after the release', 2_000);
    expect(handed).to.deep.equal([{ key: IDENTITY.key, holder: 'here' }]);
    // the write's own release only: the hold released nothing after it
    expect(releases()).to.equal(1);
    const elsewhere = claimsOn(store, 'elsewhere');
    made.push(elsewhere);
    expect(await elsewhere.claim(IDENTITY)).to.deep.include({ kind: 'claimed', taskIds: [] });
  });

  it('makes a claim of this process wait for the write, instead of finding the context busy', async () => {
    const { store } = flakyStore();
    const claims = claimsOn(store, 'here');
    made.push(claims);
    let land: () => void = () => undefined;
    const landed = new Promise<void>((resolve) => (land = resolve));
    await heldTurn(claims, async (release) => {
      await landed;
      if (release) await store.releaseContext(release.key, release.holder);
    });
    const next = claims.claim(IDENTITY);
    land();
    expect(await next).to.deep.include({ kind: 'claimed', evictions: [] });
  });

  it('leaves the claim to a failed write’s retries, as a failed release', async () => {
    const { store, setDown, releases } = flakyStore();
    const claims = claimsOn(store, 'here');
    const elsewhere = claimsOn(store, 'elsewhere');
    made.push(claims, elsewhere);
    const { after, written, released } = await heldTurn(claims, async () => {
      throw new Error('connection refused');
    });
    expect(await written.catch((error: unknown) => String(error))).to.equal('Error: connection refused');
    await released;
    const busy = await elsewhere.claim(IDENTITY).catch((error: unknown) => error);
    expect(busy instanceof A2aError && busy.reason).to.equal('CONTEXT_BUSY');
    setDown(false);
    await waitFor(() => releases() > 0, 'a retried release', 5_000);
    expect(await elsewhere.claim(IDENTITY)).to.deep.include({ kind: 'claimed', taskIds: [] });
    // the work is over: what follows it runs (the turn's copy of its task is forgotten)
    expect(after).to.deep.equal(['after']);
  });

  it('hands nothing when later work holds the context (a cancel following the turn)', async () => {
    const { store, releases } = flakyStore();
    const claims = claimsOn(store, 'here');
    made.push(claims);
    await claims.claim(IDENTITY);
    let finishTurn: () => void = () => undefined;
    const turn = claims.hold(
      IDENTITY.key,
      new Promise<void>((resolve) => (finishTurn = resolve)),
      async () => undefined,
    );
    let finishCancel: () => void = () => undefined;
    const cancel = claims.hold(
      IDENTITY.key,
      new Promise<void>((resolve) => (finishCancel = resolve)),
      async () => undefined,
    );
    const handed: (ClaimRelease | undefined)[] = [];
    await turn.releaseIn(async (release) => void handed.push(release));
    finishTurn();
    await turn.released;
    expect(handed).to.deep.equal([undefined]);
    expect(releases()).to.equal(0);
    finishCancel();
    await cancel.released;
    expect(releases()).to.equal(1);
  });
});
