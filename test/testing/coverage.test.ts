import { expect } from 'chai';
import { buildFlowGraph } from '../../src/diagrams/index.js';
import { CoverageRecorder, shortestSilentPath } from '../../src/testing/coverage.js';
import { inlineAssistant, startConversation } from '../support/inline-assistant.js';

// A menu whose choice links to another flow, after a noop the engine passes without an event.
const assistant = inlineAssistant({
  domain: `
    intents:
      - menu
    slots:
      topic:
        type: text
    responses:
      utter_ask_topic:
        - text: Which topic?
      utter_balance:
        - text: Your balance is 100.
      utter_bye:
        - text: Bye.
  `,
  flows: `
    flows:
      menu:
        description: Offer topics.
        nlu_trigger:
          - intent: menu
        steps:
          - id: route
            noop: true
            next: ask
          - id: ask
            collect: topic
            next:
              - if: slots.topic = "balance"
                then:
                  - id: to_balance
                    link: balance
              - else:
                  - id: bye
                    action: utter_bye
                    next: END
      balance:
        description: Show the balance.
        steps:
          - id: say_balance
            action: utter_balance
  `,
});

async function conversationEvents(messages: readonly string[]) {
  const conversation = await startConversation(assistant);
  for (const message of messages) await conversation.send(message);
  return conversation.events();
}

describe('CoverageRecorder', () => {
  it('follows a frame through silent steps and into a link that ends its flow unseen', async () => {
    const recorder = new CoverageRecorder(assistant.flows);
    recorder.record(await conversationEvents(['/menu', '/SetSlots(topic=balance)']));
    const menu = recorder.reachOf('menu');
    expect([...menu.reachedStepIds].sort()).to.deep.equal(['START', 'ask', 'route', 'to_balance']);
    expect([...menu.reachedEdges].sort()).to.deep.equal(['START->route', 'ask->to_balance', 'route->ask']);
    const balance = recorder.reachOf('balance');
    expect([...balance.reachedStepIds].sort()).to.deep.equal(['END', 'START', 'say_balance']);
    expect([...balance.reachedEdges].sort()).to.deep.equal(['START->say_balance', 'say_balance->END']);
  });

  it('adds the paths of several conversations, and knows nothing of a flow never entered', async () => {
    const recorder = new CoverageRecorder(assistant.flows);
    recorder.record(await conversationEvents(['/menu', '/SetSlots(topic=balance)']));
    recorder.record(await conversationEvents(['/menu', '/SetSlots(topic=other)']));
    expect(recorder.reachOf('menu').reachedEdges).to.include.keys([
      'ask->bye',
      'bye->END',
      'ask->to_balance',
    ]);
    const never = new CoverageRecorder(assistant.flows);
    never.record(await conversationEvents([]));
    expect(never.reachOf('menu').reachedStepIds.size).to.equal(0);
    expect(never.reachOf('no_such_flow').reachedEdges.size).to.equal(0);
  });
});

describe('shortestSilentPath', () => {
  const menu = assistant.flows.get('menu');
  if (!menu) throw new Error('no menu flow');
  const graph = buildFlowGraph(menu);

  it('fills in the steps between two recorded ones', () => {
    expect(shortestSilentPath(graph, 'START', 'ask')).to.deep.equal(['START', 'route', 'ask']);
  });

  it('does not cross an action step, which always records itself, nor explain an impossible move', () => {
    expect(shortestSilentPath(graph, 'ask', 'END')).to.deep.equal(['ask', 'END']);
    expect(shortestSilentPath(graph, 'bye', 'route')).to.deep.equal(['bye', 'route']);
  });
});
