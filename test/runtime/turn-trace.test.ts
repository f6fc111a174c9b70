import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from '../../src/core/commands/types.js';
import type { CommandGenerator, TraceSink } from '../../src/core/ports.js';
import type { TraceEvent } from '../../src/core/trace/trace-events.js';
import { PayloadCommandGenerator } from '../../src/understanding/direct-payloads.js';
import { composeAgent } from '../../src/cli/compose.js';
import { inlineAssistant, ManualClock } from '../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    intents:
      - book
    slots:
      guest:
        type: text
        mappings:
          - type: from_llm
    responses:
      utter_ask_guest:
        - text: Who is coming?
      utter_booked:
        - text: Booked for {guest}.
  `,
  flows: `
    flows:
      book_table:
        description: Book a table.
        nlu_trigger:
          - intent: book
        steps:
          - id: ask
            collect: guest
          - id: done
            action: utter_booked
  `,
});

class RecordingSink implements TraceSink {
  readonly events: TraceEvent[] = [];
  record(event: TraceEvent): void {
    this.events.push(event);
  }
  ofType<T extends TraceEvent['type']>(type: T): Extract<TraceEvent, { type: T }>[] {
    return this.events.filter((event): event is Extract<TraceEvent, { type: T }> => event.type === type);
  }
}

/** A generator that remembers what each call was given (the payload generator does the work). */
class WatchedGenerator implements CommandGenerator {
  readonly inputs: Parameters<CommandGenerator['understand']>[0][] = [];
  private readonly inner = new PayloadCommandGenerator();
  understand(input: Parameters<CommandGenerator['understand']>[0]) {
    this.inputs.push(input);
    return this.inner.understand(input);
  }
}

async function agentWith(options: { traceSink?: TraceSink; generator?: CommandGenerator } = {}) {
  let frames = 0;
  let messages = 0;
  const agent = await composeAgent({
    assistant,
    projectRoot: mkdtempSync(join(tmpdir(), 'parley-trace-')),
    clock: new ManualClock(),
    ids: { frameId: () => `F${(frames += 1)}`, messageId: () => `M${(messages += 1)}` },
    commandGenerator: options.generator ?? new PayloadCommandGenerator(),
    ...(options.traceSink ? { traceSink: options.traceSink } : {}),
  });
  return agent;
}

describe('turn trace', () => {
  it('records a turn: the payload source, its commands, the steps visited, the actions and the slots', async () => {
    const agent = await agentWith();
    const sink = new RecordingSink();
    await agent.handleMessage({ conversationId: 'c1', text: '/book' });
    await agent.handleMessage({ conversationId: 'c1', text: '/SetSlots(guest=Ann)', trace: sink });
    expect(sink.events[0]).to.deep.include({
      type: 'turn_started',
      conversationId: 'c1',
      text: '/SetSlots(guest=Ann)',
    });
    const [understood] = sink.ofType('commands_understood');
    expect(understood?.source).to.deep.equal({ kind: 'payload', payload: 'set_slots' });
    expect(understood?.commands).to.deep.equal([
      { command: 'set slot', name: 'guest', value: 'Ann', extractor: 'CommandPayloadReader' },
    ]);
    expect(sink.ofType('commands_received')[0]?.given).to.equal(false);
    expect(sink.ofType('commands_cleaned')[0]?.changes).to.deep.equal([]);
    expect(
      sink.ofType('slot_changed').map(({ name, previous, value }) => ({ name, previous, value })),
    ).to.deep.include({
      name: 'guest',
      previous: null,
      value: 'Ann',
    });
    const visited = sink.ofType('step_visited').map((event) => `${event.flowId}:${event.stepId}`);
    expect(visited).to.include('book_table:done');
    const actions = sink.ofType('action_run').map((event) => event.action);
    expect(actions).to.include('utter_booked');
    const booked = sink.ofType('action_run').find((event) => event.action === 'utter_booked');
    expect(booked?.events.flatMap((event) => (event.event === 'bot' ? [event.text] : []))).to.deep.equal([
      'Booked for Ann.',
    ]);
    const ended = sink.events.at(-1);
    expect(ended?.type).to.equal('turn_ended');
    if (ended?.type === 'turn_ended') {
      // the flow ended: its slots are reset, as Rasa does
      expect(ended.slots['guest']).to.equal(null);
      expect(ended.position).to.equal(undefined);
    }
  });

  it('records given commands and why clean-up dropped some of them', async () => {
    const agent = await agentWith();
    const sink = new RecordingSink();
    const commands: Command[] = [
      { command: 'start flow', flow: 'book_table' },
      { command: 'start flow', flow: 'no_such_flow' },
      { command: 'cancel flow' },
    ];
    await agent.handleMessage({ conversationId: 'c2', text: 'hi', commands, trace: sink });
    expect(sink.ofType('commands_understood')[0]?.source).to.deep.equal({ kind: 'given' });
    const cleaned = sink.ofType('commands_cleaned')[0];
    expect(cleaned?.applied).to.deep.equal([{ command: 'start flow', flow: 'book_table' }]);
    expect(
      cleaned?.changes.map(({ command, outcome }) => ({ command: command.command, outcome })),
    ).to.deep.equal([
      { command: 'start flow', outcome: 'dropped' },
      { command: 'cancel flow', outcome: 'replaced' },
      { command: 'cannot handle', outcome: 'dropped' },
    ]);
    expect(cleaned?.changes[0]?.reason).to.contain('no_such_flow');
    const ended = sink.ofType('turn_ended')[0];
    expect(ended?.position?.flowId).to.equal('pattern_collect_information');
    expect(ended?.stack.map((frame) => frame.flow_id)).to.deep.equal([
      'book_table',
      'pattern_collect_information',
    ]);
    expect(sink.ofType('stack_changed').length).to.be.greaterThan(0);
  });

  it('hands the generator no trace and builds no trace event when nobody listens', async () => {
    const generator = new WatchedGenerator();
    const agent = await agentWith({ generator });
    await agent.handleMessage({ conversationId: 'c3', text: '/book' });
    expect(generator.inputs).to.have.length(1);
    expect(Object.keys(generator.inputs[0] ?? {})).to.deep.equal(['text', 'state', 'engine']);
    const sink = new RecordingSink();
    await agent.handleMessage({ conversationId: 'c3', text: '/SetSlots(guest=Bo)', trace: sink });
    expect(generator.inputs[1]?.trace).not.to.equal(undefined);
    expect(sink.ofType('commands_understood')[0]?.source).to.deep.equal({
      kind: 'payload',
      payload: 'set_slots',
    });
  });

  it('runs the turn on when a sink throws', async () => {
    const agent = await agentWith();
    const result = await agent.handleMessage({
      conversationId: 'c5',
      text: '/book',
      trace: {
        record: () => {
          throw new Error('consumer bug');
        },
      },
    });
    expect(result.messages.map((message) => message.text)).to.deep.equal(['Who is coming?']);
  });

  it("records every turn through the agent's own sink", async () => {
    const sink = new RecordingSink();
    const agent = await agentWith({ traceSink: sink });
    await agent.handleMessage({ conversationId: 'c4', text: '/book' });
    expect(sink.ofType('turn_started')).to.have.length(1);
    expect(sink.ofType('turn_ended')).to.have.length(1);
  });
});
