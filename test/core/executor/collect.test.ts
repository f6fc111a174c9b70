import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  actionNames,
  flowEvents,
  flowsStarted,
  inlineAssistant,
  slotEvents,
  slotValues,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const set = (name: string, value: unknown): Command => ({ command: 'set slot', name, value });
const start = (flow: string): Command => ({ command: 'start flow', flow });

describe('collect step', () => {
  const assistant = inlineAssistant({
    domain: `
      actions:
        - action_ask_account
      slots:
        amount:
          type: float
        account:
          type: text
        size:
          type: categorical
          values: [small, large]
        agree:
          type: bool
        nickname:
          type: text
        age:
          type: float
      responses:
        utter_ask_amount:
          - text: How much?
        utter_ask_size:
          - text: Which size?
        utter_ask_agree:
          - text: Do you agree?
        utter_ask_nickname:
          - text: Your nickname?
        utter_ask_age:
          - text: How old are you?
        utter_too_young:
          - text: You must be an adult.
        utter_done:
          - text: Done.
    `,
    flows: `
      flows:
        pay:
          description: Pay an amount.
          steps:
            - collect: amount
            - action: utter_done
        open_account:
          description: Open an account.
          steps:
            - collect: account
            - action: utter_done
        order:
          description: Order a coffee.
          steps:
            - collect: size
            - collect: agree
            - action: utter_done
        rename:
          description: Choose a nickname.
          steps:
            - collect: nickname
              ask_before_filling: true
            - action: utter_done
        register:
          description: Register with your age.
          steps:
            - collect: age
              rejections:
                - if: slots.age < 18
                  utter: utter_too_young
            - action: utter_done
    `,
  });

  it('asks with utter_ask_<slot> and listens, with pattern_collect_information on top of the flow', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('pay', [start('pay')]);
    expect(flowsStarted(events)).to.deep.equal(['pay', 'pattern_collect_information']);
    expect(actionNames(events).slice(-3)).to.deep.equal([
      'action_run_slot_rejections',
      'utter_ask_amount',
      'action_listen',
    ]);
    const context = events.find(
      (event) => event.event === 'flow_started' && event.flow_id === 'pattern_collect_information',
    )?.metadata;
    expect(context).to.deep.include({
      collect: 'amount',
      utter: 'utter_ask_amount',
      collect_action: 'action_ask_amount',
      rejections: [],
    });
    expect(await conversation.stack()).to.deep.equal([
      { flow_id: 'pay', step_id: 'pay_0_collect_amount', type: 'flow', frame_type: 'regular' },
      {
        flow_id: 'pattern_collect_information',
        step_id: 'pattern_collect_information_4_action_listen',
        type: 'pattern_collect_information',
      },
    ]);
  });

  it('asks with the custom action action_ask_<slot> when there is no response', async () => {
    const conversation = await startConversation(assistant, {
      stubs: { action_ask_account: { responses: [{ text: 'Which account, checking or savings?' }] } },
    });
    const events = await conversation.send('open', [start('open_account')]);
    expect(actionNames(events)).to.include('action_ask_account');
    expect(actionNames(events).at(-1)).to.equal('action_listen');
    const texts = events.flatMap((event) => (event.event === 'bot' ? [event.text] : []));
    expect(texts).to.deep.equal(['Which account, checking or savings?']);
  });

  it('does not ask for a slot that is already filled', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('pay 20', [start('pay'), set('amount', 20)]);
    expect(flowsStarted(events)).to.include('pattern_collect_information');
    expect(utterances(events)).to.not.include('utter_ask_amount');
    expect(utterances(events)[0]).to.equal('utter_done');
  });

  it('with ask_before_filling, resets the slot when reached and asks although it had a value', async () => {
    const conversation = await startConversation(assistant);
    await conversation.append([{ event: 'slot', name: 'nickname', value: 'Bo' }]);
    const events = await conversation.send('rename', [start('rename')]);
    expect(slotValues(events, 'nickname')).to.deep.equal([null]);
    expect(utterances(events)).to.deep.equal(['utter_ask_nickname']);
  });

  it('rejects a value that fails a rejection condition: the slot is reset, the rejection said, the question asked again', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('register', [start('register')]);
    const events = await conversation.send('12', [set('age', 12)]);
    expect(slotValues(events, 'age')).to.deep.equal([12, null]);
    expect(utterances(events)).to.deep.equal(['utter_too_young', 'utter_ask_age']);
    const accepted = await conversation.send('30', [set('age', 30)]);
    expect(utterances(accepted)[0]).to.equal('utter_done');
  });

  it('rejects a value of the wrong type: "abc" for a float slot says utter_float_slot_rejection', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('pay', [start('pay')]);
    const events = await conversation.send('abc', [set('amount', 'abc')]);
    expect(slotValues(events, 'amount')).to.deep.equal(['abc', null]);
    expect(utterances(events)).to.deep.equal(['utter_float_slot_rejection', 'utter_ask_amount']);
  });

  it('rejects an unknown categorical value and a non-boolean answer with their type rejections', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('order', [start('order')]);
    const size = await conversation.send('huge', [set('size', 'huge')]);
    expect(utterances(size)).to.deep.equal(['utter_categorical_slot_rejection', 'utter_ask_size']);
    await conversation.send('LARGE', [set('size', 'LARGE')]);
    expect((await conversation.slots())['size']).to.equal('large');
    const agree = await conversation.send('perhaps', [set('agree', 'perhaps')]);
    expect(utterances(agree)).to.deep.equal(['utter_boolean_slot_rejection', 'utter_ask_agree']);
  });

  it('ends the collect pattern without resetting the slot or offering more help', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('pay', [start('pay')]);
    const events = await conversation.send('20', [set('amount', 20)]);
    expect(flowEvents(events).slice(0, 1)).to.deep.equal(['flow_completed pattern_collect_information']);
    expect(slotEvents(events)[0]).to.deep.equal({ name: 'amount', value: 20 });
  });

  it('without a question and without an initial value, cancels the flow and raises pattern_internal_error', async () => {
    // validation reports COLLECT_NO_QUESTION for this assistant; the test is about what happens at run time
    const broken = inlineAssistant(
      {
        domain: `
        slots:
          colour:
            type: text
        responses:
          utter_done:
            - text: Done.
      `,
        flows: `
        flows:
          paint:
            description: Paint the wall.
            steps:
              - collect: colour
              - action: utter_done
      `,
      },
      { validate: false },
    );
    const conversation = await startConversation(broken);
    const events = await conversation.send('paint', [start('paint')]);
    expect(flowsStarted(events)).to.include('pattern_internal_error');
    expect(flowsStarted(events)).to.include('pattern_cancel_flow');
    expect(utterances(events)).to.include('utter_internal_error_rasa');
    expect(utterances(events)).to.not.include('utter_done');
    expect((await conversation.stack()).filter((frame) => frame.type === 'flow')).to.deep.equal([]);
    const error = events.find(
      (event) => event.event === 'flow_started' && event.flow_id === 'pattern_internal_error',
    );
    expect(error?.metadata).to.include({ error_type: 'rasa_internal_error_default' });
  });

  it('without a question in a pattern, with no user flow to cancel, raises pattern_internal_error', async () => {
    const broken = inlineAssistant(
      {
        domain: `
        slots:
          colour:
            type: text
      `,
        flows: `
        flows:
          pattern_chitchat:
            description: Ask for a colour without a question.
            steps:
              - collect: colour
      `,
      },
      { validate: false },
    );
    const conversation = await startConversation(broken);
    const events = await conversation.send('blah', [{ command: 'chitchat' }]);
    expect(flowsStarted(events)).to.include('pattern_internal_error');
    expect(flowsStarted(events)).to.not.include('pattern_cancel_flow');
    expect(utterances(events)).to.include('utter_internal_error_rasa');
  });

  it('for a slot the domain does not declare, raises pattern_internal_error instead of failing', async () => {
    // validation reports the unknown slot; a stale project can still reach such a step at run time
    const broken = inlineAssistant(
      {
        domain: `
        responses:
          utter_done:
            - text: Done.
      `,
        flows: `
        flows:
          paint:
            description: Paint the wall.
            steps:
              - collect: colour
              - action: utter_done
      `,
      },
      { validate: false },
    );
    const conversation = await startConversation(broken);
    const events = await conversation.send('paint', [start('paint')]);
    expect(utterances(events)).to.include('utter_internal_error_rasa');
    expect(utterances(events)).to.not.include('utter_done');
  });

  it('without a question but with an initial value, moves on without asking', async () => {
    const defaults = inlineAssistant({
      domain: `
        slots:
          colour:
            type: text
            initial_value: white
        responses:
          utter_done:
            - text: Done.
      `,
      flows: `
        flows:
          paint:
            description: Paint the wall.
            steps:
              - collect: colour
              - action: utter_done
      `,
    });
    const conversation = await startConversation(defaults);
    const events = await conversation.send('paint', [start('paint')]);
    expect(flowsStarted(events)).to.not.include('pattern_internal_error');
    expect(utterances(events)[0]).to.equal('utter_done');
  });

  it('keeps the value after the flow ends with reset_after_flow_ends: false, and resets the others', async () => {
    const persisted = inlineAssistant({
      domain: `
        slots:
          name:
            type: text
          topic:
            type: text
        responses:
          utter_ask_name:
            - text: Your name?
          utter_ask_topic:
            - text: Which topic?
          utter_done:
            - text: Done.
      `,
      flows: `
        flows:
          sign_up:
            description: Sign up.
            steps:
              - collect: name
                reset_after_flow_ends: false
              - collect: topic
              - action: utter_done
      `,
    });
    const conversation = await startConversation(persisted);
    await conversation.send('sign up', [start('sign_up')]);
    await conversation.send('Ann', [set('name', 'Ann')]);
    const events = await conversation.send('news', [set('topic', 'news')]);
    expect(flowEvents(events)).to.include('flow_completed sign_up');
    expect(slotValues(events, 'topic')).to.deep.equal(['news', null]);
    expect(slotValues(events, 'name')).to.deep.equal([]);
    expect(await conversation.slots()).to.include({ name: 'Ann', topic: null });
  });
});
