/**
 * Two Parley servers on loopback: the orchestrator's flow calls the other as a sub-agent over A2A
 * (official @a2a-js/sdk client). A REST user completes a multi-turn task the sub-agent owns, and the
 * orchestrator's flow continues with the slots the sub-agent returned; with the sub-agent stopped the
 * user gets pattern_internal_error and the orchestrator keeps serving; the SDK's own echo agent works as
 * a sub-agent too.
 */
import { TaskState } from '@a2a-js/sdk';
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { startServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { startEchoAgent } from '../support/echo-agent.js';
import type { EchoAgent } from '../support/echo-agent.js';
import { writeInlineProject } from '../support/inline-project.js';

const TRAVEL_DOMAIN = `
  version: "3.1"
  session_config:
    session_expiration_time: 60
    start_session_after_expiry: false
  intents: [book_trip]
  slots:
    destination: {type: text, mappings: [{type: from_llm}]}
    travellers: {type: float, mappings: [{type: from_llm}]}
  responses:
    utter_ask_destination: [{text: Where to?}]
    utter_ask_travellers: [{text: How many travellers?}]
    utter_booked: [{text: 'Trip to {destination} for {travellers} booked.'}]
`;

const TRAVEL_FLOWS = `
  flows:
    book_trip:
      description: Book a trip.
      nlu_trigger:
        - intent: book_trip
      steps:
        - collect: destination
        - collect: travellers
        - action: utter_booked
`;

const ORCHESTRATOR_DOMAIN = `
  version: "3.1"
  session_config:
    session_expiration_time: 60
    start_session_after_expiry: false
  intents: [book_trip, echo_me, try_fail, try_slow]
  slots:
    destination: {type: text, mappings: [{type: controlled}]}
    travellers: {type: float, mappings: [{type: controlled}]}
  responses:
    utter_summary: [{text: 'Summary: {destination}, {travellers} travellers.'}]
    utter_after_echo: [{text: Back with the orchestrator.}]
    utter_never: [{text: This is never said.}]
`;

const ORCHESTRATOR_FLOWS = `
  flows:
    plan_trip:
      description: Plan a trip with the travel agent.
      nlu_trigger:
        - intent: book_trip
      steps:
        - call: travel_agent
        - action: utter_summary
    echo_something:
      description: Let the echo agent answer.
      nlu_trigger:
        - intent: echo_me
      steps:
        - call: echo_agent
        - action: utter_after_echo
    fail_something:
      description: An agent whose task fails.
      nlu_trigger:
        - intent: try_fail
      steps:
        - call: failing_agent
        - action: utter_never
    wait_for_something:
      description: An agent too slow to answer.
      nlu_trigger:
        - intent: try_slow
      steps:
        - call: slow_agent
        - action: utter_never
`;

function agentConfig(name: string, cardUrl: string, extra = '', timeout = 5): string {
  return [
    'agent:',
    `  name: ${name}`,
    '  protocol: a2a',
    `  description: The ${name}.`,
    'configuration:',
    `  agent_card: ${cardUrl}`,
    `  timeout: ${timeout}`,
    '  max_retries: 2',
    extra,
  ].join('\n');
}

interface RestMessage {
  readonly text?: string;
}

async function say(server: ParleyServer, sender: string, message: string): Promise<string[]> {
  const response = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sender, message }),
  });
  expect(response.status).to.equal(200);
  return ((await response.json()) as RestMessage[]).map((item) => item.text ?? '');
}

async function start(root: string, enableApi = false, inMemory = true): Promise<ParleyServer> {
  return startServer({
    location: { project: root },
    projectRoot: root,
    port: 0,
    host: '127.0.0.1',
    logger: SILENT_LOGGER,
    ...(inMemory ? { trackerStore: new MemoryTrackerStore() } : {}),
    env: {},
    enableApi,
  });
}

describe('flows that call A2A sub-agents (two Parley servers on loopback)', function () {
  this.timeout(60_000);
  let travel: ParleyServer;
  let orchestrator: ParleyServer;
  let echo: EchoAgent;
  let failing: EchoAgent;
  let slow: EchoAgent;
  let orchestratorRoot: string;

  before(async () => {
    travel = await start(
      writeInlineProject({
        domain: TRAVEL_DOMAIN,
        flows: TRAVEL_FLOWS,
        endpoints: `
          a2a_server:
            description: A travel sub-agent.
            include_conversation_repair: false
        `,
      }),
      true,
    );
    echo = await startEchoAgent();
    failing = await startEchoAgent({ state: TaskState.TASK_STATE_FAILED });
    slow = await startEchoAgent({ delayMs: 3_000 });
    orchestratorRoot = writeInlineProject({
      domain: ORCHESTRATOR_DOMAIN,
      flows: ORCHESTRATOR_FLOWS,
      endpoints: `
          a2a_server:
            description: The orchestrator.
        `,
      files: {
        'sub_agents/travel/config.yml': agentConfig(
          'travel_agent',
          `${travel.baseUrl}/.well-known/agent-card.json`,
          '  result_slots: [destination, travellers]',
        ),
        'sub_agents/echo/config.yml': agentConfig('echo_agent', echo.cardUrl),
        'sub_agents/failing/config.yml': agentConfig('failing_agent', failing.cardUrl),
        'sub_agents/slow/config.yml': agentConfig('slow_agent', slow.cardUrl, '', 1),
      },
    });
    orchestrator = await start(orchestratorRoot, true);
  });

  after(async () => {
    await orchestrator?.close();
    await travel?.close();
    await echo?.close();
    await failing?.close();
    await slow?.close();
  });

  it('relays a multi-turn task to the sub-agent, then continues the flow with the slots it returned', async () => {
    expect(await say(orchestrator, 'alice', '/book_trip')).to.deep.equal(['Where to?']);
    const tracker = (await (await fetch(`${orchestrator.baseUrl}/conversations/alice/tracker`)).json()) as {
      stack: { type: string; agent_id?: string; metadata?: { context_id?: string; task_id?: string } }[];
    };
    const frame = tracker.stack.at(-1);
    expect(frame?.type).to.equal('agent');
    expect(frame?.agent_id).to.equal('travel_agent');
    // the sub-agent's ids are in the tracker, so any replica (or a restarted one) goes on
    expect(frame?.metadata?.context_id).to.be.a('string').and.not.equal('');
    expect(frame?.metadata?.task_id).to.be.a('string').and.not.equal('');

    const second = await say(orchestrator, 'alice', '/SetSlots(destination=Lisbon)');
    expect(second).to.deep.equal(['How many travellers?']);
    const done = await say(orchestrator, 'alice', '/SetSlots(travellers=2)');
    expect(done.slice(0, 2)).to.deep.equal([
      'Trip to Lisbon for 2.0 booked.',
      'Summary: Lisbon, 2.0 travellers.',
    ]);
  });

  it('goes on with the sub-agent after the orchestrator restarts: the ids are in the stored tracker', async () => {
    // the default store (SQLite in the project folder), not memory, so that a restart keeps the conversation
    let restarting = await start(orchestratorRoot, false, false);
    expect(await say(restarting, 'dora', '/book_trip')).to.deep.equal(['Where to?']);
    await restarting.close();
    restarting = await start(orchestratorRoot, false, false);
    try {
      expect(await say(restarting, 'dora', '/SetSlots(destination=Porto)')).to.deep.equal([
        'How many travellers?',
      ]);
      const done = await say(restarting, 'dora', '/SetSlots(travellers=3)');
      expect(done.slice(0, 2)).to.deep.equal([
        'Trip to Porto for 3.0 booked.',
        'Summary: Porto, 3.0 travellers.',
      ]);
    } finally {
      await restarting.close();
    }
  });

  it('cancels the flow into pattern_internal_error when the sub-agent fails its task', async () => {
    const answers = await say(orchestrator, 'erin', '/try_fail');
    expect(answers[0]).to.match(/trouble|wrong|error/i);
    expect(answers).to.not.include('This is never said.');
    expect(failing.received).to.deep.equal(['/try_fail']);
  });

  it('gives up on a sub-agent slower than its timeout, without hanging the conversation', async () => {
    const started = Date.now();
    const answers = await say(orchestrator, 'finn', '/try_slow');
    expect(Date.now() - started).to.be.below(2_900);
    expect(answers[0]).to.match(/trouble|wrong|error/i);
    expect(answers).to.not.include('This is never said.');
  });

  it('lets the SDK echo agent answer as a sub-agent, and the flow goes on when its task completes', async () => {
    const answers = await say(orchestrator, 'bob', '/echo_me');
    expect(answers.slice(0, 2)).to.deep.equal(['echo: /echo_me', 'Back with the orchestrator.']);
    expect(echo.received).to.deep.equal(['/echo_me']);
  });

  it('runs pattern_internal_error when the sub-agent is down, and keeps serving', async () => {
    await travel.close();
    const answers = await say(orchestrator, 'carol', '/book_trip');
    expect(answers[0]).to.match(/trouble|wrong|error/i);
    const tracker = (await (await fetch(`${orchestrator.baseUrl}/conversations/carol/tracker`)).json()) as {
      stack: unknown[];
    };
    expect(tracker.stack).to.deep.equal([]);
    expect((await say(orchestrator, 'carol', '/echo_me')).slice(0, 2)).to.deep.equal([
      'echo: /echo_me',
      'Back with the orchestrator.',
    ]);
  });

  it('lists only its own flows as skills on its AgentCard, not the sub-agents', async () => {
    const card = (await (await fetch(`${orchestrator.baseUrl}/.well-known/agent-card.json`)).json()) as {
      skills: { id: string }[];
    };
    const flows = card.skills.map((skill) => skill.id).filter((id) => !id.startsWith('pattern_'));
    expect(flows.sort()).to.deep.equal([
      'echo_something',
      'fail_something',
      'plan_trip',
      'wait_for_something',
    ]);
  });
});
