/**
 * The Agent on the SQLite tracker store: a conversation stored there behaves as one kept in memory,
 * and survives a restart (store closed, a new store and agent opened on the same file).
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event } from '../../src/core/events/types.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import type { Conversation } from '../support/inline-assistant.js';
import { eventNames, stackFlows, startConversation, utterances } from '../support/inline-assistant.js';
import { TRANSFER_SCRIPT, transferAssistant } from '../support/store-conversation.js';

const assistant = transferAssistant();

async function play(conversation: Conversation, turns: typeof TRANSFER_SCRIPT): Promise<string[][]> {
  const said: string[][] = [];
  for (const turn of turns) said.push(utterances(await conversation.send(turn.text, turn.commands)));
  return said;
}

describe('the Agent on the SQLite tracker store', () => {
  const folder = mkdtempSync(join(tmpdir(), 'parley-agent-sql-'));
  const open = () => new SqlTrackerStore({ target: sqliteTarget('.parley/tracker.db', folder) });
  let reference: { said: string[][]; events: readonly Event[]; conversation: Conversation };

  before(async () => {
    const conversation = await startConversation(assistant, { conversationId: 'reference' });
    reference = {
      said: await play(conversation, TRANSFER_SCRIPT),
      events: await conversation.events(),
      conversation,
    };
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it('stores and reloads exactly the events an in-memory conversation has', async () => {
    const store = open();
    try {
      const conversation = await startConversation(assistant, {
        trackerStore: store,
        conversationId: 'reference',
      });
      expect(await play(conversation, TRANSFER_SCRIPT)).to.deep.equal(reference.said);
      expect(await conversation.events()).to.deep.equal(reference.events);
      expect(await conversation.state()).to.deep.equal(await reference.conversation.state());
    } finally {
      await store.close();
    }
  });

  it('continues a conversation correctly after a restart', async () => {
    const half = Math.floor(TRANSFER_SCRIPT.length / 2);
    const before = open();
    const first = await startConversation(assistant, { trackerStore: before, conversationId: 'restarted' });
    const saidBefore = await play(first, TRANSFER_SCRIPT.slice(0, half));
    const countBefore = (await first.events()).length;
    await before.close();

    // a new process: a new store on the same file, a new agent
    const after = open();
    try {
      const recent = await after.loadRecent('restarted');
      expect(recent.eventCount).to.equal(countBefore);
      expect(recent.snapshot?.eventCount, 'loaded from the snapshot, not replayed').to.equal(countBefore);
      expect(recent.eventsAfterSnapshot).to.deep.equal([]);

      const second = await startConversation(assistant, { trackerStore: after, conversationId: 'restarted' });
      const saidAfter = await play(second, TRANSFER_SCRIPT.slice(half));
      expect([...saidBefore, ...saidAfter]).to.deep.equal(reference.said);
      const events = await second.events();
      expect(eventNames(events)).to.deep.equal(eventNames(reference.events));
      expect(await second.slots()).to.deep.equal(await reference.conversation.slots());
      expect(stackFlows(await second.stack())).to.deep.equal(
        stackFlows(await reference.conversation.stack()),
      );
    } finally {
      await after.close();
    }
  });
});
