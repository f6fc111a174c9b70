/**
 * The migration docs/a2a.md gives for conversations an A2A server wrote under the raw contextId (before
 * the `a2a:<caller>:` namespace, or with `context_id_as_sender_id`): its SQL, taken from the doc as
 * written, run on a real SQLite file and a real PostgreSQL database between two servers. The context
 * waiting for input goes on after the upgrade; other conversations stay where they were.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { send, statusData } from '../a2a/hardening-support.js';
import type { V03Task } from '../a2a/hardening-support.js';
import { rpc } from '../a2a/rpc-support.js';
import { forEachDialect } from '../support/sql-databases.js';
import type { SqlTestDatabase } from '../support/sql-databases.js';
import { restMessage, startSecureServer, trackerOf, userTexts } from './support.js';

/** the statements between the doc's markers, one per `;` */
function documentedStatements(): string[] {
  const doc = readFileSync(new URL('../../docs/a2a.md', import.meta.url), 'utf8');
  const block = /<!-- a2a-migration-sql -->\s*```sql\n([\s\S]*?)```\s*<!-- \/a2a-migration-sql -->/.exec(doc);
  if (!block?.[1]) throw new Error('docs/a2a.md has no a2a-migration-sql block');
  return block[1]
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

async function serverOn(database: SqlTestDatabase, legacy: boolean): Promise<ParleyServer> {
  return startSecureServer({
    auth: false,
    a2a: legacy ? ['context_id_as_sender_id: true'] : [],
    serve: { trackerStore: database.store() },
  });
}

describe('Security: migrating A2A conversations into the a2a: namespace (docs/a2a.md)', () => {
  forEachDialect((fresh) => {
    it('moves a waiting context’s conversation, which the upgraded server then continues', async () => {
      const database = await fresh();
      const contextId = `old-${crypto.randomUUID()}`;
      const before = await serverOn(database, true);
      try {
        const started = (await rpc(before.baseUrl, send('/transfer_money', { contextId }))).body[
          'result'
        ] as V03Task;
        expect(statusData(started)['awaiting']).to.deep.equal({
          slot: 'recipient',
          flow_id: 'transfer_money',
        });
        expect(
          (await restMessage(before, { sender: 'web-user', message: '/transfer_money' })).status,
        ).to.equal(200);
      } finally {
        await before.close();
      }
      for (const statement of documentedStatements()) await database.raw.raw(statement);
      const after = await serverOn(database, false);
      try {
        const next = (await rpc(after.baseUrl, send('/SetSlots(recipient=Anna)', { contextId }))).body[
          'result'
        ] as V03Task;
        // the dialogue went on where it stopped: the recipient was the question, the amount is next
        expect(statusData(next)['awaiting']).to.deep.equal({ slot: 'amount', flow_id: 'transfer_money' });
        expect(userTexts(await trackerOf(after, `a2a::${contextId}`))).to.deep.equal([
          '/transfer_money',
          '/SetSlots(recipient=Anna)',
        ]);
        expect(userTexts(await trackerOf(after, 'web-user'))).to.deep.equal(['/transfer_money']);
        expect(userTexts(await trackerOf(after, contextId))).to.deep.equal([]);
      } finally {
        await after.close();
      }
    });
  });
});
