import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import type { Event } from '../../../src/core/events/types.js';
import type { Conversation } from '../../support/inline-assistant.js';
import { joinOptions } from '../../../src/core/executor/flow-end.js';
import {
  flowEvents,
  flowsStarted,
  inlineAssistant,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const start = (flow: string): Command => ({ command: 'start flow', flow });

const domain = `
  slots:
    recipient:
      type: text
    city:
      type: text
  responses:
    utter_ask_recipient:
      - text: To whom?
    utter_ask_city:
      - text: Which city?
    utter_hello:
      - text: Hello!
    utter_noted:
      - text: Noted.
`;
const flows = `
  flows:
    transfer_money:
      description: Send money to someone.
      steps:
        - collect: recipient
    check_weather:
      description: Tell the weather in a city.
      steps:
        - collect: city
    greet:
      description: Say hello.
      steps:
        - action: utter_hello
    note_quietly:
      description: Take a note without offering more help.
      run_pattern_completed: false
      steps:
        - action: utter_noted
    book_trip:
      description: Book a trip, asking for the city in a called flow.
      steps:
        - call: ask_city
        - action: utter_noted
    ask_city:
      description: Ask for the city.
      steps:
        - collect: city
`;
const config313 = `
  recipe: default.v1
  language: en
  assistant_id: inline-test
  parley:
    rasa_version: "3.13"
`;

const assistant = inlineAssistant({ domain, flows });

function startedContext(
  events: readonly Event[],
  flowId: string,
): Readonly<Record<string, unknown>> | undefined {
  return events.find((event) => event.event === 'flow_started' && event.flow_id === flowId)?.metadata;
}

/** transfer_money waits for the recipient; greet interrupts it and ends. */
async function interruptedByGreeting(conversation: Conversation): Promise<readonly Event[]> {
  await conversation.send('send money', [start('transfer_money')]);
  return conversation.send('hello', [start('greet')]);
}

describe('flow end', () => {
  it('runs pattern_completed with the readable name when the last flow ends', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('hi', [start('greet')]);
    expect(flowEvents(events)).to.deep.equal([
      'flow_started greet',
      'flow_completed greet',
      'flow_started pattern_completed',
      'flow_completed pattern_completed',
    ]);
    expect(startedContext(events, 'pattern_completed')).to.include({ previous_flow_name: 'greet' });
    expect(utterances(events)).to.deep.equal(['utter_hello', 'utter_can_do_something_else']);
  });

  it('does not run pattern_completed for a flow with run_pattern_completed: false', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('note', [start('note_quietly')]);
    expect(flowsStarted(events)).to.deep.equal(['note_quietly']);
    expect(utterances(events)).to.deep.equal(['utter_noted']);
  });

  it('asks whether to continue the interrupted flow when the interrupting flow ends', async () => {
    const conversation = await startConversation(assistant);
    const events = await interruptedByGreeting(conversation);
    expect(flowsStarted(events)).to.include('pattern_continue_interrupted');
    expect(flowsStarted(events)).to.not.include('pattern_completed');
    expect(startedContext(events, 'pattern_continue_interrupted')).to.deep.include({
      interrupted_flow_ids: ['transfer_money'],
      interrupted_flow_names: ['transfer money'],
      multiple_flows_interrupted: false,
    });
    expect(utterances(events)).to.deep.equal([
      'utter_hello',
      'utter_ask_continue_interrupted_flow_confirmation',
    ]);
  });

  it('resumes the interrupted flow when the user says yes', async () => {
    const conversation = await startConversation(assistant);
    await interruptedByGreeting(conversation);
    const events = await conversation.send('/SetSlots(continue_interrupted_flow_confirmation=true)');
    expect(flowEvents(events)).to.include('flow_resumed transfer_money');
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
    expect((await conversation.stack()).map((frame) => frame.flow_id)).to.deep.equal([
      'transfer_money',
      'pattern_collect_information',
    ]);
    expect((await conversation.slots())['continue_interrupted_flow_confirmation']).to.equal(null);
  });

  it('cancels the interrupted flow when the user says no', async () => {
    const conversation = await startConversation(assistant);
    await interruptedByGreeting(conversation);
    const events = await conversation.send('/SetSlots(continue_interrupted_flow_confirmation=false)');
    expect(flowEvents(events)).to.include('flow_cancelled transfer_money');
    expect(utterances(events)[0]).to.equal('utter_flow_cancelled_rasa');
    expect(utterances(events)).to.not.include('utter_ask_recipient');
    expect(flowEvents(events)).to.not.include('flow_resumed transfer_money');
    const stack = await conversation.stack();
    expect(stack.filter((frame) => frame.type === 'flow')).to.deep.equal([]);
    expect(stack.map((frame) => frame.flow_id)).to.not.include('pattern_collect_information');
  });

  it('asks which one to continue when several flows were interrupted', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [start('transfer_money')]);
    await conversation.send('weather', [start('check_weather')]);
    const events = await conversation.send('hello', [start('greet')]);
    expect(startedContext(events, 'pattern_continue_interrupted')).to.deep.include({
      interrupted_flow_ids: ['check_weather', 'transfer_money'],
      multiple_flows_interrupted: true,
    });
    expect(utterances(events)).to.deep.equal(['utter_hello', 'utter_ask_interrupted_flow_to_continue']);
    const chosen = await conversation.send('/SetSlots(interrupted_flow_to_continue=transfer_money)');
    expect(flowEvents(chosen)).to.include('flow_resumed transfer_money');
    expect(utterances(chosen)).to.deep.equal(['utter_ask_recipient']);
  });

  it('names the interrupted flows as one option text: "A", "A or B", "A, B or C"', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [start('transfer_money')]);
    await conversation.send('weather', [start('check_weather')]);
    const events = await conversation.send('hello', [start('greet')]);
    expect(startedContext(events, 'pattern_continue_interrupted')).to.include({
      interrupted_flow_options: 'check weather or transfer money',
    });
    expect(joinOptions([])).to.equal('');
    expect(joinOptions(['a'])).to.equal('a');
    expect(joinOptions(['a', 'b', 'c'])).to.equal('a, b or c');
  });

  it('offers to continue the caller, not the called flow, that an interruption left', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('book', [start('book_trip')]);
    const events = await conversation.send('hello', [start('greet')]);
    expect(startedContext(events, 'pattern_continue_interrupted')).to.deep.include({
      interrupted_flow_ids: ['book_trip'],
      multiple_flows_interrupted: false,
    });
  });

  it('with resumeInterruptedFlowsAtOnce and the Rasa 3.13 patterns, says it continues and resumes at once', async () => {
    const legacy = inlineAssistant({ domain, flows, config: config313 });
    const conversation = await startConversation(legacy, {
      engineOptions: { resumeInterruptedFlowsAtOnce: true },
    });
    const events = await interruptedByGreeting(conversation);
    expect(flowEvents(events)).to.include('flow_resumed transfer_money');
    expect(startedContext(events, 'pattern_continue_interrupted')).to.include({
      previous_flow_name: 'transfer money',
    });
    expect(utterances(events)).to.deep.equal([
      'utter_hello',
      'utter_flow_continue_interrupted',
      'utter_ask_recipient',
    ]);
  });

  it('with the Rasa 3.16 patterns, pattern_completed asks whether more help is needed', async () => {
    const recent = inlineAssistant({ domain, flows, config: config313.replace('3.13', '3.16') });
    const conversation = await startConversation(recent);
    const events = await conversation.send('hi', [start('greet')]);
    expect(utterances(events)).to.deep.equal(['utter_hello', 'utter_ask_continue_conversation']);
  });

  it('resets the slots the ended flow collected, marked as resets', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [start('transfer_money')]);
    const events = await conversation.send('Ann', [{ command: 'set slot', name: 'recipient', value: 'Ann' }]);
    const reset = events.filter((event) => event.event === 'slot' && event.value === null);
    expect(reset).to.have.length(1);
    expect(reset[0]).to.deep.include({ name: 'recipient', metadata: { reset: true } });
  });
});
