// Claims of new A2A contexts at `max_contexts` on PostgreSQL, through the SQL task store alone (no HTTP,
// no dialogue): each claim opens a context in place of the least recently used idle one, and its task
// is saved as the turn's answer would be (completed, the claim ended in the same write). Run with one
// writer and with CLAIMS_WRITERS at once, in CLAIMS_ROUNDS interleaved rounds on a fresh database each:
// the ratio says whether claims at the cap run side by side or queue behind one another's commits.
import { performance } from 'node:perf_hooks';
import { postgresDatabase } from './support/postgres.js';
import { recordResults, setting, summarise } from './support/results.js';

const CAP = setting('CLAIMS_CAP', 1000, 200);
const WRITERS = setting('CLAIMS_WRITERS', 32, 16);
const SECONDS = setting('CLAIMS_SECONDS', 8, 3);
const ROUNDS = setting('CLAIMS_ROUNDS', 3, 1);

const { SqlTrackerStore } = await import('../dist/stores/sql/sql-tracker-store.js');
const { readSqlTarget } = await import('../dist/stores/sql/sql-target.js');
const { ConfigReader } = await import('../dist/stores/config-reader.js');
const { SqlTaskStore } = await import('../dist/a2a/tasks/sql/sql-task-store.js');

await main();

/** A task store on a fresh database, filled to the cap with idle contexts. */
async function filledStore() {
  const database = await postgresDatabase('claims');
  if (!database) return undefined;
  const reader = new ConfigReader({ section: 'tracker_store', raw: database.config });
  const tracker = new SqlTrackerStore({ target: readSqlTarget(reader, { projectRoot: '.', env: {} }) });
  const store = new SqlTaskStore({ database: tracker.database });
  let next = 0;
  const claimOne = async () => {
    const key = `claims-${next++}`;
    const outcome = await store.claimContext({
      key,
      contextId: key,
      owner: '',
      holder: 'bench',
      now: Date.now(),
      leaseMs: 60_000,
      maxContexts: CAP,
    });
    if (outcome.kind !== 'claimed') throw new Error(`claim of ${key}: ${outcome.kind}`);
    const task = {
      id: `task-${key}`,
      contextId: key,
      status: { state: 'completed', timestamp: new Date().toISOString() },
      history: [],
      artifacts: [],
    };
    const stored = { task, owner: '', contextKey: key, bytes: JSON.stringify(task).length };
    await store.saveTask(stored, { release: { key, holder: 'bench' } });
  };
  while (next < CAP) await Promise.all(Array.from({ length: 16 }, claimOne));
  const close = async () => {
    await tracker.close();
    await database.drop();
  };
  return { claimOne, close };
}

/** claims a second with `writers` at once, each claiming one context after another */
async function claimsPerSecond(writers) {
  const filled = await filledStore();
  if (!filled) return undefined;
  try {
    let done = 0;
    const end = performance.now() + SECONDS * 1000;
    const writer = async () => {
      while (performance.now() < end) {
        await filled.claimOne();
        done += 1;
      }
    };
    await Promise.all(Array.from({ length: writers }, writer));
    return done / SECONDS;
  } finally {
    await filled.close();
  }
}

async function main() {
  const alone = [];
  const together = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const one = await claimsPerSecond(1);
    if (one === undefined) return;
    const many = await claimsPerSecond(WRITERS);
    alone.push(one);
    together.push(many);
    console.log(
      `round ${round + 1}: 1 writer ${one.toFixed(0)}, ${WRITERS} writers ${many.toFixed(0)} claims/s`,
    );
  }
  const ratios = together.map((value, index) => value / alone[index]);
  recordResults('claims', {
    method: `SQL task store alone on PostgreSQL, ${CAP} idle contexts at the cap, each claim evicting one and saving its task; 1 and ${WRITERS} writers for ${SECONDS} s, ${ROUNDS} interleaved rounds`,
    measures: [
      {
        id: 'claims.at-cap',
        label: `A2A claims of new contexts at the cap, ${WRITERS} writers (PostgreSQL)`,
        unit: 'claims/s',
        value: summarise(together),
        baseline: { label: '1 writer', value: summarise(alone) },
        ratio: summarise(ratios),
      },
    ],
  });
}
