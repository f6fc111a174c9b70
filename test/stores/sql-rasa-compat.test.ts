/**
 * A database that Rasa's SQLTrackerStore created and wrote (tables made by SQLAlchemy's create_all,
 * rows inserted without our `seq`, `data` from Python's json.dumps) is upgraded in place and read.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { foldEvents } from '../../src/core/events/fold-events.js';
import { parseEvent } from '../../src/core/events/parse-event.js';
import { createTrackerState } from '../../src/core/events/tracker-state.js';
import type { Event } from '../../src/core/events/types.js';
import type { Dialect } from '../../src/stores/sql/migrations.js';
import type { SqlTestDatabase } from '../support/sql-databases.js';
import { forEachDialect, rowsOf } from '../support/sql-databases.js';
import { turnEvents } from './tracker-store-contract.js';

/** What SQLAlchemy's create_all emits for Rasa's SQLEvent model (Integer id + optional Sequence). */
function createRasaTable(dialect: Dialect): string[] {
  return [
    `CREATE TABLE events (
	id ${dialect === 'postgresql' ? 'SERIAL' : 'INTEGER'} NOT NULL, 
	sender_id VARCHAR(255) NOT NULL, 
	type_name VARCHAR(255) NOT NULL, 
	timestamp FLOAT, 
	intent_name VARCHAR(255), 
	action_name VARCHAR(255), 
	data TEXT, 
	PRIMARY KEY (id)
)`,
    'CREATE INDEX ix_events_sender_id ON events (sender_id)',
  ];
}

/** Python's json.dumps with its defaults: ", " and ": " separators, non-ASCII escaped. */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${pythonJson(key)}: ${pythonJson(item)}`)
      .join(', ')}}`;
  if (typeof value === 'string')
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return JSON.stringify(value);
}

const frame = {
  frame_id: 'X1Y2Z3',
  flow_id: 'transfer_money',
  step_id: 'START',
  frame_type: 'regular',
  type: 'flow',
};

/** A CALM conversation as Rasa 3.x stores it (event.as_dict() of each event). */
function rasaEvents(at: number): Record<string, unknown>[] {
  const meta = { model_id: 'b4c1', assistant_id: 'bank' };
  return [
    {
      event: 'action',
      timestamp: at,
      metadata: meta,
      name: 'action_session_start',
      policy: null,
      confidence: 1.0,
      action_text: null,
      hide_rule_turn: false,
    },
    { event: 'session_started', timestamp: at + 0.001, metadata: meta },
    {
      event: 'action',
      timestamp: at + 0.002,
      metadata: meta,
      name: 'action_listen',
      policy: null,
      confidence: null,
      action_text: null,
      hide_rule_turn: false,
    },
    {
      event: 'user',
      timestamp: at + 1,
      metadata: meta,
      text: 'send 50€ to Zoë',
      parse_data: {
        intent: { name: 'transfer', confidence: 0.97 },
        entities: [],
        text: 'send 50€ to Zoë',
        message_id: 'a1b2',
        metadata: {},
        commands: [{ command: 'start flow', flow: 'transfer_money' }],
        intent_ranking: [{ name: 'transfer', confidence: 0.97 }],
      },
      input_channel: 'rest',
      message_id: 'a1b2',
    },
    {
      event: 'stack',
      timestamp: at + 1.1,
      metadata: meta,
      update: JSON.stringify([{ op: 'add', path: '/0', value: frame }]),
    },
    { event: 'flow_started', timestamp: at + 1.1, metadata: meta, flow_id: 'transfer_money' },
    { event: 'slot', timestamp: at + 1.2, metadata: meta, name: 'recipient', value: 'Zoë' },
    {
      event: 'action',
      timestamp: at + 1.3,
      metadata: meta,
      name: 'utter_ask_amount',
      policy: 'FlowPolicy',
      confidence: 1.0,
      action_text: null,
      hide_rule_turn: false,
    },
    {
      event: 'bot',
      timestamp: at + 1.3,
      metadata: { ...meta, utter_action: 'utter_ask_amount' },
      text: 'How much?',
      data: {
        elements: null,
        quick_replies: null,
        buttons: null,
        attachment: null,
        image: null,
        custom: null,
      },
    },
  ];
}

/** Inserts rows as Rasa's save() does: no id (the database numbers it), no seq. */
async function insertLikeRasa(raw: Knex, senderId: string, events: Record<string, unknown>[]): Promise<void> {
  for (const event of events) {
    const parseData = event['parse_data'] as { intent?: { name?: string } } | undefined;
    await raw.raw(
      'INSERT INTO events (sender_id, type_name, timestamp, intent_name, action_name, data) VALUES (?, ?, ?, ?, ?, ?)',
      [
        senderId,
        String(event['event']),
        Number(event['timestamp']),
        parseData?.intent?.name ?? null,
        typeof event['name'] === 'string' ? event['name'] : null,
        pythonJson(event),
      ],
    );
  }
}

function parsed(events: Record<string, unknown>[]): Event[] {
  return events.map((event) => {
    const result = parseEvent(event, 0);
    if (!result.ok) throw new Error(result.error);
    return result.event;
  });
}

describe('SqlTrackerStore reads a database written by Rasa', () => {
  forEachDialect((fresh) => {
    let database: SqlTestDatabase;
    const ann = rasaEvents(1_700_000_000.25);
    const bob = rasaEvents(1_700_000_100.5);

    beforeEach(async () => {
      database = await fresh();
      for (const statement of createRasaTable(database.dialect)) await database.raw.raw(statement);
      // two conversations, interleaved as concurrent users would write them
      await insertLikeRasa(database.raw, 'ann', ann.slice(0, 4));
      await insertLikeRasa(database.raw, 'bob', bob);
      await insertLikeRasa(database.raw, 'ann', ann.slice(4));
    });

    it('upgrades the tables in place and loads each conversation in Rasa order', async () => {
      const store = database.store();
      expect(await store.loadAll('ann')).to.deep.equal(parsed(ann));
      expect(await store.loadAll('bob')).to.deep.equal(parsed(bob));
      const recent = await store.loadRecent('ann');
      expect(recent).to.deep.equal({ eventCount: ann.length, eventsAfterSnapshot: parsed(ann) });
      const state = foldEvents(
        createTrackerState({ senderId: 'ann', initialSlots: {} }),
        recent.eventsAfterSnapshot,
      );
      expect(state.stack.map((item) => item.flow_id)).to.deep.equal(['transfer_money']);
      expect(state.slots['recipient']).to.equal('Zoë');
    });

    it("keeps Rasa's columns and index, and numbers the old rows per conversation", async () => {
      await database.store().open();
      const columns = Object.keys(await database.raw.table('events').columnInfo());
      expect(columns).to.include.members([
        'id',
        'sender_id',
        'type_name',
        'timestamp',
        'intent_name',
        'action_name',
        'data',
        'seq',
      ]);
      const rows = await database.raw('events').select('sender_id', 'seq').orderBy('id');
      expect(rows.map((row) => `${row.sender_id}#${row.seq}`)).to.deep.equal([
        ...[0, 1, 2, 3].map((seq) => `ann#${seq}`),
        ...bob.map((_, seq) => `bob#${seq}`),
        ...[4, 5, 6, 7, 8].map((seq) => `ann#${seq}`),
      ]);
      const indexes =
        database.dialect === 'sqlite'
          ? rowsOf<{ name: string }>(
              await database.raw.raw("SELECT name FROM sqlite_master WHERE type = 'index'"),
            )
          : rowsOf<{ name: string }>(
              await database.raw.raw("SELECT indexname AS name FROM pg_indexes WHERE tablename = 'events'"),
            );
      // Rasa's index on sender_id alone is dropped: the (sender_id, seq) index answers its lookups
      const names = indexes.map((index) => index.name);
      expect(names).to.include('ix_events_sender_id_seq');
      expect(names).not.to.include('ix_events_sender_id');
    });

    it('continues a Rasa conversation, writing rows the way Rasa does', async () => {
      const store = database.store();
      const next = turnEvents('ann', 2);
      await store.append('ann', next, { expectedCount: ann.length });
      expect(await store.loadAll('ann')).to.deep.equal([...parsed(ann), ...next]);
      const rows = await database
        .raw('events')
        .where('sender_id', 'ann')
        .andWhere('seq', '>=', ann.length)
        .orderBy('id');
      expect(
        rows.map((row) => [row.type_name, row.intent_name, row.action_name, Number(row.timestamp)]),
      ).to.deep.equal(
        next.map((event) => [
          event.event,
          event.event === 'user' ? 'greet' : null,
          'name' in event ? event.name : null,
          event.timestamp,
        ]),
      );
      expect(rows.map((row) => JSON.parse(row.data))).to.deep.equal(next);
    });

    it('numbers rows Rasa keeps inserting after the upgrade (a rollback to Rasa stays possible)', async () => {
      const store = database.store();
      await store.open();
      const more = rasaEvents(1_700_000_500);
      await insertLikeRasa(database.raw, 'bob', more.slice(2, 4));
      expect(await store.loadAll('bob')).to.deep.equal(parsed([...bob, ...more.slice(2, 4)]));
      await store.append('bob', turnEvents('bob', 1), { expectedCount: bob.length + 2 });
      expect((await store.loadAll('bob')).length).to.equal(bob.length + 2 + 5);
    });

    it('migrates once: a second store finds nothing to do', async () => {
      const logged: string[] = [];
      const logger = { info: (_: unknown, message: string) => logged.push(message), warn() {}, error() {} };
      await database.store({ logger }).open();
      await database.store({ logger }).open();
      expect(logged.filter((message) => message.includes('migrated'))).to.have.length(1);
      const versions = await database.raw('parley_migrations').select('version', 'name').orderBy('version');
      expect(versions.map((row) => `${row.version} ${row.name}`)).to.deep.equal([
        '1 rasa events table',
        '2 events seq',
        '3 tracker snapshots',
        '4 no second sender_id index',
        '5 a2a task store',
        '6 lock and load function',
        '7 append and unlock function',
        '8 a2a open tasks index',
        '9 a2a context last holder',
        '10 lz4 for the json columns',
        '11 a2a waiting contexts',
      ]);
    });
  });
});
