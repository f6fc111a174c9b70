import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import { expectWholeTurns } from './tracker-store-contract.js';

const run = promisify(execFile);
const WORKER = join(import.meta.dirname, 'sqlite-append-worker.ts');

describe('SqlTrackerStore on one SQLite file shared by several processes', function () {
  this.timeout(120_000);
  const folder = mkdtempSync(join(tmpdir(), 'parley-sqlite-processes-'));
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('migrates once and serialises racing appends: no event lost, duplicated or reordered', async () => {
    const file = join(folder, 'shared.db');
    const [processes, turns] = [4, 25];
    const outputs = await Promise.all(
      Array.from({ length: processes }, (_, worker) =>
        run(process.execPath, ['--import', 'tsx', WORKER, file, String(worker), String(turns)]),
      ),
    );
    const conflicts = outputs.map((output) => (JSON.parse(output.stdout) as { conflicts: number }).conflicts);
    const store = new SqlTrackerStore({ target: sqliteTarget(file, folder) });
    const events = await store.loadAll('shared');
    await store.close();
    expect(events).to.have.length(processes * turns * 5);
    const users = events.flatMap((event) => (event.event === 'user' && event.text ? [event.text] : []));
    for (let worker = 0; worker < processes; worker += 1) {
      const mine = users.filter((text) => text.startsWith(`w${worker}/`));
      expect(mine).to.deep.equal(Array.from({ length: turns }, (_, turn) => `w${worker}/${turn}`));
    }
    // every turn's five events stay together
    expectWholeTurns(events);
    // the workers do race: each typically meets several TRACKER_CONFLICTs, and retries after reloading
    expect(conflicts).to.have.length(processes);
  });
});
