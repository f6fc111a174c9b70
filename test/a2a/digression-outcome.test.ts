import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { startServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { writeInlineProject } from '../support/inline-project.js';
import { send, statusData, statusTexts } from './hardening-support.js';
import type { V03Task } from './hardening-support.js';
import { rpc } from './rpc-support.js';

// A flow that interrupts another one while it waits at a collect step stacks two collect frames:
// [book_trip, collect destination, check_weather, collect city]. The task's data part must name the
// question the user is answering now (the top one), not the one waiting underneath.

const DOMAIN = `
  version: "3.1"
  session_config:
    session_expiration_time: 60
    start_session_after_expiry: false
  intents: [book_trip, check_weather]
  slots:
    destination: {type: text, mappings: [{type: from_llm}]}
    city: {type: text, mappings: [{type: from_llm}]}
  responses:
    utter_ask_destination: [{text: Where to?}]
    utter_ask_city: [{text: Weather for which city?}]
    utter_sunny: [{text: 'Sunny in {city}.'}]
    utter_booked: [{text: 'Trip to {destination} booked.'}]
`;

const FLOWS = `
  flows:
    book_trip:
      description: Book a trip.
      nlu_trigger:
        - intent: book_trip
      steps:
        - collect: destination
        - action: utter_booked
    check_weather:
      description: Tell the weather in a city.
      nlu_trigger:
        - intent: check_weather
      steps:
        - collect: city
        - action: utter_sunny
`;

/** A memory store that counts the reads of the conversations' stored events. */
class CountingStore extends MemoryTrackerStore {
  readonly reads = { recent: 0, all: 0 };

  override loadRecent(conversationId: string) {
    this.reads.recent += 1;
    return super.loadRecent(conversationId);
  }

  override loadAll(conversationId: string) {
    this.reads.all += 1;
    return super.loadAll(conversationId);
  }
}

describe('A2A outcome after a digression (two collect frames on the stack)', function () {
  this.timeout(60_000);
  let server: ParleyServer;
  const store = new CountingStore();

  before(async () => {
    const root = writeInlineProject({
      domain: DOMAIN,
      flows: FLOWS,
      endpoints: `
        a2a_server:
          description: A travel sub-agent.
      `,
    });
    server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      trackerStore: store,
      env: {},
      enableApi: true,
    });
  });
  after(async () => {
    await server.close();
  });

  const task = async (body: unknown): Promise<V03Task> => {
    const answer = await rpc(server.baseUrl, body);
    expect(answer.body['error'], JSON.stringify(answer.body['error'])).to.equal(undefined);
    return answer.body['result'] as V03Task;
  };

  const stackOf = async (
    contextId: string,
  ): Promise<{ type: string; flow_id: string; collect?: string }[]> => {
    const response = await fetch(
      `${server.baseUrl}/conversations/${encodeURIComponent(`a2a::${contextId}`)}/tracker`,
    );
    const tracker = (await response.json()) as {
      stack: { type: string; flow_id: string; collect?: string }[];
    };
    return tracker.stack.map(({ type, flow_id, collect }) => ({
      type,
      flow_id,
      ...(collect ? { collect } : {}),
    }));
  };

  it('reads the conversation once per turn: the outcome comes from the turn, not from the store again', async () => {
    const first = await task(send('/book_trip'));
    store.reads.recent = 0;
    store.reads.all = 0;
    const digression = await task(send('/check_weather', { contextId: first.contextId }));
    expect(statusData(digression)).to.deep.include({ state: 'input-required' });
    expect(store.reads).to.deep.equal({ recent: 1, all: 0 });
  });

  it("awaits the top question: the interrupting flow's, then the resume confirmation, then the first flow's again", async () => {
    const first = await task(send('/book_trip'));
    expect(statusData(first)).to.deep.include({
      state: 'input-required',
      active_flow: 'book_trip',
      awaiting: { slot: 'destination', flow_id: 'book_trip' },
    });

    const digression = await task(send('/check_weather', { contextId: first.contextId }));
    expect(await stackOf(first.contextId)).to.deep.equal([
      { type: 'flow', flow_id: 'book_trip' },
      { type: 'pattern_collect_information', flow_id: 'pattern_collect_information', collect: 'destination' },
      { type: 'flow', flow_id: 'check_weather' },
      { type: 'pattern_collect_information', flow_id: 'pattern_collect_information', collect: 'city' },
    ]);
    expect(digression.status.state).to.equal('input-required');
    expect(statusData(digression)).to.deep.include({
      active_flow: 'check_weather',
      awaiting: { slot: 'city', flow_id: 'check_weather' },
    });
    expect(statusTexts(digression)).to.include('Weather for which city?');

    // the weather flow ends; pattern_continue_interrupted now asks on top of the waiting destination
    const answered = await task(send('/SetSlots(city=Paris)', { contextId: first.contextId }));
    expect(statusTexts(answered)).to.include('Sunny in Paris.');
    expect(statusData(answered)).to.deep.include({
      state: 'input-required',
      awaiting: {
        slot: 'continue_interrupted_flow_confirmation',
        flow_id: 'pattern_continue_interrupted',
      },
    });

    const resumed = await task(
      send('/SetSlots(continue_interrupted_flow_confirmation=true)', { contextId: first.contextId }),
    );
    expect(statusTexts(resumed)).to.include('Where to?');
    expect(statusData(resumed)).to.deep.include({
      state: 'input-required',
      active_flow: 'book_trip',
      awaiting: { slot: 'destination', flow_id: 'book_trip' },
    });
  });
});
