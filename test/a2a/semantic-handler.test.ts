import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A2aError } from '../../src/a2a/a2a-error.js';
import { DEFAULT_MAX_MESSAGE_BYTES, SemanticHandler } from '../../src/a2a/semantic-handler.js';
import type { SemanticHandlerOptions, SemanticSettings } from '../../src/a2a/semantic-handler.js';
import type { A2aMessage, Part, Task, TaskEvent } from '../../src/a2a/tasks/model.js';
import type { TurnAdmission } from '../../src/a2a/turn-admission.js';
import { composeAgent } from '../../src/cli/compose.js';
import type { CommandGenerator, Understanding } from '../../src/core/ports.js';
import type { Agent } from '../../src/runtime/agent.js';
import { PayloadCommandGenerator } from '../../src/understanding/direct-payloads.js';
import { inlineAssistant } from '../support/inline-assistant.js';
import { recordingLogger } from '../support/recording-logger.js';
import type { RecordingLogger } from '../support/recording-logger.js';

/**
 * The A2A semantics without a wire or a server: the handler over a real agent, whose understanding
 * reads payloads and holds a turn on the text `wait` until the test releases it.
 */
const ASSISTANT = inlineAssistant({
  domain: `
    version: "3.1"
    intents: [transfer_money]
    slots:
      recipient: {type: text, mappings: [{type: from_llm}]}
      amount: {type: float, mappings: [{type: from_llm}]}
    responses:
      utter_ask_recipient: [{text: Who should get the money?}]
      utter_ask_amount: [{text: How much?}]
      utter_done: [{text: Done.}]
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to another person.
        nlu_trigger:
          - intent: transfer_money
        steps:
          - collect: recipient
          - collect: amount
          - action: utter_done
  `,
});

const START = '/transfer_money';
const FINISH = '/SetSlots(recipient=Anna, amount=5)';
const T0 = Date.UTC(2026, 0, 1);

/** Payload understanding; the text `wait` holds its turn until `release()`. */
class HeldUnderstanding implements CommandGenerator {
  private readonly payloads = new PayloadCommandGenerator();
  private opened = (): void => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.opened = resolve));

  async understand(input: Parameters<CommandGenerator['understand']>[0]): Promise<Understanding> {
    if (input.text === 'wait') await this.gate;
    return this.payloads.understand(input);
  }

  release(): void {
    this.opened();
  }
}

interface Setup {
  readonly handler: SemanticHandler;
  readonly agent: Agent;
  readonly understanding: HeldUnderstanding;
  readonly logger: RecordingLogger;
  /** moves the handler's clock */
  advance(ms: number): void;
}

async function setup(
  settings: Partial<SemanticSettings> = {},
  options: Partial<SemanticHandlerOptions> = {},
): Promise<Setup> {
  const understanding = new HeldUnderstanding();
  const agent = await composeAgent({
    assistant: ASSISTANT,
    projectRoot: mkdtempSync(join(tmpdir(), 'parley-semantic-')),
    commandGenerator: understanding,
  });
  const logger = recordingLogger();
  let ids = 0;
  let now = T0;
  const handler = new SemanticHandler({
    agent,
    commandGenerator: understanding,
    settings: {
      includeConversationRepair: false,
      taskTimeoutSeconds: 0,
      messageCacheTtlSeconds: 600,
      maxContexts: 0,
      ...settings,
    },
    logger,
    now: () => now,
    newId: () => `id-${(ids += 1)}`,
    ...options,
  });
  return { handler, agent, understanding, logger, advance: (ms) => void (now += ms) };
}

let messages = 0;
function message(text: string, extra: Partial<A2aMessage> = {}): A2aMessage {
  messages += 1;
  return { messageId: `m-${messages}`, role: 'user', parts: [{ kind: 'text', text }], ...extra };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** sends and waits for the answer and for the context to be free again */
async function send(handler: SemanticHandler, sent: A2aMessage, caller = ''): Promise<Task> {
  const task = await (await handler.sendMessage({ message: sent, caller })).done;
  await tick();
  return task;
}

function statusData(task: Task): Record<string, unknown> {
  const parts: readonly Part[] = task.status.message?.parts ?? [];
  const data = parts.find((part) => part.kind === 'data');
  return data?.kind === 'data' ? (data.data as Record<string, unknown>) : {};
}

async function refusal(work: () => unknown): Promise<A2aError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof A2aError) return error;
    throw error;
  }
  throw new Error('expected an A2aError');
}

/** The server's door as the handler sees it: it may be closing, and may hold the next turn at the door. */
class Door implements TurnAdmission {
  isClosing = false;
  /** true once a held turn reached the door */
  held = false;
  private holding = false;
  private open = (): void => undefined;

  async track<T>(_channel: string, _conversationId: string, turn: () => Promise<T>): Promise<T> {
    if (this.holding) {
      this.holding = false;
      this.held = true;
      await new Promise<void>((resolve) => (this.open = resolve));
    }
    return turn();
  }

  onDrained(): void {}

  holdNext(): void {
    this.holding = true;
  }

  release(): void {
    this.open();
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let round = 0; round < 200 && !condition(); round += 1)
    await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).to.equal(true);
}

describe('A2A semantic handler: messages, tasks and contexts', () => {
  it('runs a turn in a new task and context named by its ids, answering with the dialogue’s state', async () => {
    const { handler, agent } = await setup();
    const sent = await handler.sendMessage({ message: message(START), caller: '' });
    expect(sent.replayed).to.equal(false);
    expect(sent.task).to.deep.include({ id: 'id-2', contextId: 'id-1' });
    expect(sent.task.status.state).to.equal('working');
    const done = await sent.done;
    expect(done.status.state).to.equal('input-required');
    expect(done.status.timestamp).to.equal(new Date(T0).toISOString());
    expect(statusData(done)['awaiting']).to.deep.equal({ slot: 'recipient', flow_id: 'transfer_money' });
    // the context's conversation is the caller's namespaced one
    const tracker = await agent.state('a2a::id-1');
    expect(tracker.stack.map((frame) => frame.flow_id)).to.include('transfer_money');
  });

  it('continues a waiting task by its taskId, keeping the whole history, and completes it', async () => {
    const { handler } = await setup();
    const first = await send(handler, message(START));
    const second = await send(handler, message(FINISH, { taskId: first.id }));
    expect(second.id).to.equal(first.id);
    expect(second.contextId).to.equal(first.contextId);
    expect(second.status.state).to.equal('completed');
    expect(second.history.filter((item) => item.role === 'user').map((item) => item.parts)).to.deep.equal([
      [{ kind: 'text', text: START }],
      [{ kind: 'text', text: FINISH }],
    ]);
    expect(second.artifacts.map((artifact) => artifact.name)).to.deep.equal(['dialogue_result']);
  });

  it('a listener hears the task from its first event to the final status; unsubscribe stops it', async () => {
    const { handler } = await setup();
    const heard: TaskEvent[] = [];
    const sent = await handler.sendMessage({ message: message(START), caller: '' }, (event) =>
      heard.push(event),
    );
    await sent.done;
    await tick();
    expect(heard[0]).to.deep.include({ kind: 'task' });
    expect(heard[0]?.kind === 'task' && heard[0].task.status.state).to.equal('submitted');
    const last = heard.at(-1);
    expect(last?.kind === 'status-update' && last.final).to.equal(true);
    const count = heard.length;
    sent.unsubscribe();
    await send(handler, message(FINISH, { taskId: sent.task.id }));
    expect(heard).to.have.length(count);
  });

  it('a new task on a context supersedes the one still waiting for input there', async () => {
    const { handler } = await setup();
    const first = await send(handler, message(START));
    const second = await send(handler, message(FINISH, { contextId: first.contextId }));
    expect(second.id).to.not.equal(first.id);
    const superseded = handler.getTask(first.id, '');
    expect(superseded.status.state).to.equal('canceled');
    expect(statusData(superseded)['cancel']).to.deep.equal({ by: 'superseded', task_id: second.id });
    // a finished task is not touched by the next one
    const third = await send(handler, message(START, { contextId: first.contextId }));
    expect(handler.getTask(second.id, '').status.state).to.equal('completed');
    expect(third.status.state).to.equal('input-required');
  });

  it('refuses a taskId of another caller, another context, or a finished task', async () => {
    const { handler } = await setup();
    const waiting = await send(handler, message(START), 'alice');
    const notFound = await refusal(() =>
      handler.sendMessage({ message: message(FINISH, { taskId: waiting.id }), caller: 'bob' }),
    );
    expect(notFound.reason).to.equal('TASK_NOT_FOUND');
    const elsewhere = await refusal(() =>
      handler.sendMessage({
        message: message(FINISH, { taskId: waiting.id, contextId: 'other' }),
        caller: 'alice',
      }),
    );
    expect(elsewhere.reason).to.equal('INVALID_PARAMS');
    expect(elsewhere.metadata).to.deep.equal({ field: 'message.contextId' });
    const completed = await send(
      handler,
      message(FINISH, { taskId: waiting.id, contextId: waiting.contextId }),
      'alice',
    );
    expect(completed.status.state).to.equal('completed');
    const terminal = await refusal(() =>
      handler.sendMessage({ message: message(FINISH, { taskId: waiting.id }), caller: 'alice' }),
    );
    expect(terminal.reason).to.equal('TASK_TERMINAL');
    expect(terminal.metadata).to.deep.equal({ taskId: waiting.id, state: 'completed' });
  });

  it('a second message on a context whose turn runs is CONTEXT_BUSY; the context takes messages after', async () => {
    const { handler, understanding } = await setup();
    const running = await handler.sendMessage({ message: message('wait'), caller: '' });
    const contextId = running.task.contextId;
    const busy = await refusal(() =>
      handler.sendMessage({ message: message(START, { contextId }), caller: '' }),
    );
    expect(busy.reason).to.equal('CONTEXT_BUSY');
    expect(busy.metadata).to.deep.equal({ contextId });
    understanding.release();
    await running.done;
    await tick();
    const next = await send(handler, message(START, { contextId }));
    expect(next.status.state).to.equal('input-required');
  });

  it('with context_id_as_sender_id the contextId is the conversation, and belongs to its first caller', async () => {
    const { handler, agent } = await setup({ contextIdAsSenderId: true });
    const task = await send(handler, message(START, { contextId: 'shared-ctx' }), 'alice');
    expect(task.status.state).to.equal('input-required');
    expect((await agent.state('shared-ctx')).stack.map((frame) => frame.flow_id)).to.include(
      'transfer_money',
    );
    const other = await refusal(() =>
      handler.sendMessage({ message: message(START, { contextId: 'shared-ctx' }), caller: 'bob' }),
    );
    expect(other.reason).to.equal('INVALID_PARAMS');
    expect(other.metadata).to.deep.equal({ field: 'message.contextId' });
  });

  it('callers of the same contextId have separate conversations without context_id_as_sender_id', async () => {
    const { handler } = await setup();
    await send(handler, message(START, { contextId: 'ctx' }), 'alice');
    const bobs = await send(handler, message(FINISH, { contextId: 'ctx' }), 'bob');
    // bob's conversation has no transfer running: the slots alone start nothing
    expect(statusData(bobs)['active_flow']).to.equal(null);
    expect(handler.stats().contexts).to.equal(2);
  });
});

describe('A2A semantic handler: replays by messageId', () => {
  it('a repeated messageId on the context returns the first answer and runs nothing', async () => {
    const { handler, agent } = await setup();
    const sent = message(START);
    const first = await send(handler, sent);
    const again = await handler.sendMessage({ message: { ...sent, contextId: first.contextId }, caller: '' });
    expect(again.replayed).to.equal(true);
    expect(again.task).to.deep.equal(first);
    expect(await again.done).to.deep.equal(first);
    again.unsubscribe();
    const said = (await agent.load(`a2a::${first.contextId}`)).events.filter(
      (event) => event.event === 'user',
    );
    expect(said).to.have.length(1);
  });

  it('recognises a replay by the taskId alone, even of the message that ended the task', async () => {
    const { handler } = await setup();
    const waiting = await send(handler, message(START));
    const finishing = message(FINISH, { taskId: waiting.id });
    const completed = await send(handler, finishing);
    const again = await handler.sendMessage({ message: finishing, caller: '' });
    expect(again.replayed).to.equal(true);
    expect(again.task).to.deep.equal(completed);
  });

  it('the same messageId with another payload is invalid params, not a replay', async () => {
    const { handler } = await setup();
    const sent = message(START);
    const first = await send(handler, sent);
    const other = await refusal(() =>
      handler.sendMessage({
        message: { ...sent, contextId: first.contextId, parts: [{ kind: 'text', text: FINISH }] },
        caller: '',
      }),
    );
    expect(other.reason).to.equal('INVALID_PARAMS');
    expect(other.metadata).to.deep.equal({ field: 'message.messageId' });
  });

  it('a messageId is remembered per caller and context, and for the TTL only', async () => {
    const { handler, advance } = await setup({ messageCacheTtlSeconds: 60 });
    const sent = message(START, { contextId: 'ctx' });
    const first = await send(handler, sent, 'alice');
    // another caller's context of the same id: a new message
    const bobs = await handler.sendMessage({ message: sent, caller: 'bob' });
    expect(bobs.replayed).to.equal(false);
    await bobs.done;
    advance(59_000);
    expect((await handler.sendMessage({ message: sent, caller: 'alice' })).replayed).to.equal(true);
    advance(1_000);
    const late = await handler.sendMessage({ message: sent, caller: 'alice' });
    expect(late.replayed).to.equal(false);
    expect(late.task.id).to.not.equal(first.id);
    await late.done;
  });

  it('weighs the answers it keeps', async () => {
    const { handler } = await setup();
    expect(handler.stats()).to.deep.equal({ contexts: 0, tasks: 0, taskBytes: 0, replayBytes: 0 });
    await send(handler, message(START));
    await tick();
    const stats = handler.stats();
    expect(stats.contexts).to.equal(1);
    expect(stats.tasks).to.equal(1);
    expect(stats.taskBytes).to.be.greaterThan(0);
    expect(stats.replayBytes).to.equal(stats.taskBytes);
  });
});

describe('A2A semantic handler: byte limits', () => {
  const ofBytes = (bytes: number): A2aMessage => {
    // {"parts":[{"kind":"text","text":""}],"metadata":null} is 53 bytes around the text
    const text = 'x'.repeat(bytes - 53);
    return message(text);
  };

  it(`refuses a message over max_message_bytes (${DEFAULT_MAX_MESSAGE_BYTES} bytes by default) before it runs`, async () => {
    const { handler } = await setup();
    const refused = await refusal(() =>
      handler.sendMessage({ message: ofBytes(DEFAULT_MAX_MESSAGE_BYTES + 1), caller: '' }),
    );
    expect(refused.reason).to.equal('INVALID_PARAMS');
    expect(refused.metadata).to.deep.equal({ field: 'message', limitBytes: String(64 * 1024) });
    expect(handler.stats().tasks).to.equal(0);
    const accepted = await send(handler, ofBytes(DEFAULT_MAX_MESSAGE_BYTES));
    expect(accepted.status.state).to.equal('input-required');
  });

  it('takes max_message_bytes from the settings', async () => {
    const { handler } = await setup({ limits: { maxMessageBytes: 100 } });
    const refused = await refusal(() => handler.sendMessage({ message: ofBytes(101), caller: '' }));
    expect(refused.metadata).to.deep.include({ limitBytes: '100' });
    expect((await send(handler, ofBytes(100))).status.state).to.equal('input-required');
  });

  it('max_task_history_bytes drops the oldest messages of a long task', async () => {
    const { handler } = await setup({ limits: { maxTaskHistoryBytes: 700 } });
    const task = await send(handler, message(START));
    const continued = await send(handler, message('/SetSlots(recipient=Anna)', { taskId: task.id }));
    expect(continued.status.state).to.equal('input-required');
    const texts = continued.history.flatMap((item) =>
      item.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])),
    );
    expect(texts).to.not.include(START);
    expect(texts).to.include('/SetSlots(recipient=Anna)');
  });

  it('keeps whole histories and finished tasks without byte settings', async () => {
    const { handler } = await setup();
    const first = await send(handler, message(START, { contextId: 'ctx' }));
    await send(handler, message(FINISH, { taskId: first.id }));
    const second = await send(handler, message(START, { contextId: 'ctx' }));
    await send(handler, message(FINISH, { taskId: second.id }));
    expect(handler.getTask(first.id, '').history.filter((item) => item.role === 'user')).to.have.length(2);
    expect(handler.listTasks({ caller: '', pageSize: 10, includeArtifacts: true }).totalSize).to.equal(2);
  });

  it('max_context_bytes forgets a context’s oldest finished tasks', async () => {
    const { handler } = await setup({ limits: { maxContextBytes: 3_000 } });
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const task = await send(handler, message(START, { contextId: 'ctx' }));
      await send(handler, message(FINISH, { taskId: task.id }));
      ids.push(task.id);
    }
    const kept = handler.listTasks({ caller: '', pageSize: 10, includeArtifacts: true });
    expect(kept.totalSize).to.be.lessThan(3);
    expect(kept.tasks.map((task) => task.id)).to.include(ids[2]);
    expect((await refusal(() => handler.getTask(ids[0] as string, ''))).reason).to.equal('TASK_NOT_FOUND');
  });

  it('max_task_memory_bytes forgets finished tasks of every context, oldest first', async () => {
    const { handler } = await setup({ limits: { maxTaskMemoryBytes: 3_000 } });
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const task = await send(handler, message(START));
      await send(handler, message(FINISH, { taskId: task.id }));
      ids.push(task.id);
    }
    expect(handler.stats().taskBytes).to.be.at.most(3_000);
    expect((await refusal(() => handler.getTask(ids[0] as string, ''))).reason).to.equal('TASK_NOT_FOUND');
    expect(handler.getTask(ids[2] as string, '').status.state).to.equal('completed');
    // the replay answers get a quarter of the task memory
    expect(handler.stats().replayBytes).to.be.at.most(750);
  });

  it('over max_task_memory_bytes with waiting tasks alone, the heaviest caller’s waiting context goes', async () => {
    const { handler, logger } = await setup({ limits: { maxTaskMemoryBytes: 1_000 } });
    const first = await send(handler, message(START), 'alice');
    await send(handler, message(START), 'alice');
    expect((await refusal(() => handler.getTask(first.id, 'alice'))).reason).to.equal('TASK_NOT_FOUND');
    const evicted = logger.warningFields.find((fields) => fields['taskId'] === first.id);
    expect(evicted).to.deep.include({ reason: 'memory' });
    expect(handler.stats().contexts).to.equal(1);
  });

  it('applies the limits as soon as a task is accepted, not only when its turn is over', async () => {
    const { handler, understanding } = await setup({}, { taskLimits: { perContext: 1 } });
    const first = await send(handler, message(START, { contextId: 'ctx' }));
    await send(handler, message(FINISH, { taskId: first.id }));
    const running = await handler.sendMessage({ message: message('wait', { contextId: 'ctx' }), caller: '' });
    expect((await refusal(() => handler.getTask(first.id, ''))).reason).to.equal('TASK_NOT_FOUND');
    understanding.release();
    await running.done;
  });

  it('taskLimits bounds the tasks kept per context', async () => {
    const { handler } = await setup({}, { taskLimits: { perContext: 1 } });
    const first = await send(handler, message(START, { contextId: 'ctx' }));
    await send(handler, message(FINISH, { taskId: first.id }));
    const second = await send(handler, message(START, { contextId: 'ctx' }));
    expect((await refusal(() => handler.getTask(first.id, ''))).reason).to.equal('TASK_NOT_FOUND');
    expect(handler.getTask(second.id, '').status.state).to.equal('input-required');
  });
});

describe('A2A semantic handler: max_contexts', () => {
  it('evicts an idle context for a new one, forgetting its tasks but not its conversation', async () => {
    const { handler, agent } = await setup({ maxContexts: 1 });
    const first = await send(handler, message(START));
    await send(handler, message(FINISH, { taskId: first.id }));
    await tick();
    await send(handler, message(START));
    expect((await refusal(() => handler.getTask(first.id, ''))).reason).to.equal('TASK_NOT_FOUND');
    expect((await agent.load(`a2a::${first.contextId}`)).events.length).to.be.greaterThan(0);
  });

  it('a context with a task waiting for input is reserved: its caller gets MAX_CONTEXTS_REACHED', async () => {
    const { handler } = await setup({ maxContexts: 1 });
    const waiting = await send(handler, message(START));
    await tick();
    const refused = await refusal(() => handler.sendMessage({ message: message(START), caller: '' }));
    expect(refused.reason).to.equal('MAX_CONTEXTS_REACHED');
    expect(handler.getTask(waiting.id, '').status.state).to.equal('input-required');
  });

  it('a caller under its fair share takes the context of the caller holding the most; its open task fails', async () => {
    const { handler, logger } = await setup({ maxContexts: 2 });
    const finished = await send(handler, message(START, { contextId: 'older' }), 'alice');
    await send(handler, message(FINISH, { taskId: finished.id }), 'alice');
    // a finished task and one waiting: the context is reserved
    const older = await send(handler, message(START, { contextId: 'older' }), 'alice');
    await send(handler, message(START), 'alice');
    const bobs = await send(handler, message(START), 'bob');
    expect(bobs.status.state).to.equal('input-required');
    const failed = handler.getTask(older.id, 'alice');
    expect(failed.status.state).to.equal('failed');
    expect(statusData(failed)['error']).to.deep.include({ code: 'evicted_fair_share' });
    expect(handler.getTask(finished.id, 'alice').status.state).to.equal('completed');
    expect(logger.warnings).to.deep.equal(['a2a task evicted']);
    expect(logger.warningFields).to.deep.equal([
      { taskId: older.id, contextId: 'older', reason: 'fair_share' },
    ]);
  });
});

describe('A2A semantic handler: cancel, subscribe, timeouts, shutdown', () => {
  it('cancels a waiting task and the flow in the dialogue', async () => {
    const { handler, agent } = await setup();
    const waiting = await send(handler, message(START));
    const canceled = await handler.cancelTask(waiting.id, '');
    expect(canceled.status.state).to.equal('canceled');
    expect(statusData(canceled)).to.deep.include({ cancel: { by: 'orchestrator' }, active_flow: null });
    const events = (await agent.load(`a2a::${waiting.contextId}`)).events;
    expect(events.some((event) => event.event === 'flow_cancelled')).to.equal(true);
    // canceling again returns the canceled task
    expect(await handler.cancelTask(waiting.id, '')).to.deep.equal(canceled);
  });

  it('cancels a running task at once and its flow once the turn is over', async () => {
    const { handler, agent, understanding } = await setup();
    const waiting = await send(handler, message(START));
    const running = await handler.sendMessage({
      message: message('wait', { contextId: waiting.contextId }),
      caller: '',
    });
    const canceled = await handler.cancelTask(running.task.id, '');
    expect(canceled.status.state).to.equal('canceled');
    expect(statusData(canceled)['cancel']).to.deep.equal({ by: 'orchestrator' });
    expect((await running.done).status.state).to.equal('canceled');
    // the turn still holds the context
    const busy = await refusal(() =>
      handler.sendMessage({ message: message(START, { contextId: waiting.contextId }), caller: '' }),
    );
    expect(busy.reason).to.equal('CONTEXT_BUSY');
    understanding.release();
    for (
      let round = 0;
      round < 50 && (await agent.state(`a2a::${waiting.contextId}`)).stack.length > 0;
      round += 1
    )
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await agent.state(`a2a::${waiting.contextId}`)).stack).to.deep.equal([]);
  });

  it('the context stays busy while the flow of a canceled task is being cancelled', async () => {
    const door = new Door();
    const { handler } = await setup({}, { admission: door });
    const waiting = await send(handler, message(START));
    door.holdNext();
    const canceling = handler.cancelTask(waiting.id, '');
    await until(() => door.held);
    const busy = await refusal(() =>
      handler.sendMessage({ message: message(START, { contextId: waiting.contextId }), caller: '' }),
    );
    expect(busy.reason).to.equal('CONTEXT_BUSY');
    door.release();
    expect((await canceling).status.state).to.equal('canceled');
  });

  it('after a running task was canceled, the context stays busy until the flow is cancelled too', async () => {
    const door = new Door();
    const { handler, understanding } = await setup({}, { admission: door });
    const waiting = await send(handler, message(START));
    const running = await handler.sendMessage({
      message: message('wait', { contextId: waiting.contextId }),
      caller: '',
    });
    door.holdNext();
    const canceled = await handler.cancelTask(running.task.id, '');
    expect(canceled.status.state).to.equal('canceled');
    // the turn ends; the cancellation of the flow waits at the door
    understanding.release();
    await until(() => door.held);
    await tick();
    const busy = await refusal(() =>
      handler.sendMessage({ message: message(START, { contextId: waiting.contextId }), caller: '' }),
    );
    expect(busy.reason).to.equal('CONTEXT_BUSY');
    door.release();
  });

  it('refuses to cancel a finished task and another caller’s task', async () => {
    const { handler } = await setup();
    const waiting = await send(handler, message(START));
    await send(handler, message(FINISH, { taskId: waiting.id }));
    const refused = await refusal(() => handler.cancelTask(waiting.id, ''));
    expect(refused.reason).to.equal('TASK_NOT_CANCELABLE');
    expect(refused.metadata).to.deep.equal({ taskId: waiting.id, state: 'completed' });
    expect((await refusal(() => handler.cancelTask(waiting.id, 'mallory'))).reason).to.equal(
      'TASK_NOT_FOUND',
    );
  });

  it('subscribes to a waiting task and hears its next turn; a finished task has nothing more', async () => {
    const { handler } = await setup();
    const waiting = await send(handler, message(START));
    const heard: TaskEvent[] = [];
    const subscription = handler.subscribe(waiting.id, '', (event) => heard.push(event));
    expect(subscription.task).to.deep.equal(waiting);
    await send(handler, message(FINISH, { taskId: waiting.id }));
    const last = heard.at(-1);
    expect(last?.kind === 'status-update' && last.status.state).to.equal('completed');
    subscription.unsubscribe();
    const refused = await refusal(() => handler.subscribe(waiting.id, '', () => undefined));
    expect(refused.reason).to.equal('UNSUPPORTED_OPERATION');
    expect(refused.metadata).to.deep.equal({ taskId: waiting.id });
  });

  it('task_timeout_seconds fails a task that runs too long and answers then', async function () {
    this.timeout(10_000);
    const { handler, understanding, logger } = await setup({ taskTimeoutSeconds: 1 });
    const started = Date.now();
    const running = await handler.sendMessage({ message: message('wait'), caller: '' });
    const task = await running.done;
    expect(Date.now() - started).to.be.within(900, 3_000);
    expect(task.status.state).to.equal('failed');
    expect(statusData(task)['error']).to.deep.equal({
      code: 'task_timeout',
      message: 'The task ran longer than 1 s.',
    });
    expect(logger.warningFields).to.deep.include({ taskId: task.id, contextId: task.contextId, seconds: 1 });
    understanding.release();
  });

  it('the timeout fails a task left waiting for input too, never a finished one', async function () {
    this.timeout(10_000);
    const { handler, logger } = await setup({ taskTimeoutSeconds: 1 });
    const waiting = await send(handler, message(START));
    const started = await send(handler, message(START));
    const finished = await send(handler, message(FINISH, { taskId: started.id }));
    expect(finished.status.state).to.equal('completed');
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(statusData(handler.getTask(waiting.id, ''))['error']).to.deep.include({ code: 'task_timeout' });
    expect(handler.getTask(finished.id, '').status.state).to.equal('completed');
    expect(logger.warnings).to.deep.equal(['a2a task timed out']);
  });

  it('close() stops the task timers', async function () {
    this.timeout(10_000);
    const { handler, understanding } = await setup({ taskTimeoutSeconds: 1 });
    const running = await handler.sendMessage({ message: message('wait'), caller: '' });
    handler.close();
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(handler.getTask(running.task.id, '').status.state).to.equal('working');
    understanding.release();
    expect((await running.done).status.state).to.equal('input-required');
  });

  it('while shutting down refuses new messages and cancels, but still answers replays', async () => {
    const admission = new Door();
    const { handler } = await setup({}, { admission });
    const sent = message(START);
    const waiting = await send(handler, sent);
    admission.isClosing = true;
    expect(
      (await refusal(() => handler.sendMessage({ message: message(START), caller: '' }))).reason,
    ).to.equal('SHUTTING_DOWN');
    expect((await refusal(() => handler.cancelTask(waiting.id, ''))).reason).to.equal('SHUTTING_DOWN');
    const replay = await handler.sendMessage({
      message: { ...sent, contextId: waiting.contextId },
      caller: '',
    });
    expect(replay.replayed).to.equal(true);
  });
});

describe('A2A semantic handler: listing tasks', () => {
  async function threeTasks() {
    const context = await setup();
    const { handler, advance } = context;
    const a = await send(handler, message(START, { contextId: 'one' }));
    advance(1_000);
    const b = await send(handler, message(FINISH, { taskId: a.id }));
    advance(1_000);
    const c = await send(handler, message(START, { contextId: 'two' }));
    advance(1_000);
    const d = await send(handler, message(START, { contextId: 'three' }), 'someone-else');
    return { ...context, completed: b, waiting: c, foreign: d };
  }

  it('lists the caller’s own tasks, newest status first, in pages', async () => {
    const { handler, completed, waiting } = await threeTasks();
    const first = handler.listTasks({ caller: '', pageSize: 1, includeArtifacts: true });
    expect(first.tasks.map((task) => task.id)).to.deep.equal([waiting.id]);
    expect(first).to.include({ nextPageToken: '1', totalSize: 2 });
    const second = handler.listTasks({ caller: '', pageSize: 1, pageToken: '1', includeArtifacts: true });
    expect(second.tasks.map((task) => task.id)).to.deep.equal([completed.id]);
    expect(second.nextPageToken).to.equal('');
    expect(second.tasks[0]?.artifacts).to.have.length(1);
    const end = handler.listTasks({ caller: '', pageSize: 1, pageToken: '2', includeArtifacts: true });
    expect(end).to.deep.equal({ tasks: [], nextPageToken: '', totalSize: 2 });
  });

  it('filters by context, state and status time', async () => {
    const { handler, completed, waiting } = await threeTasks();
    const ids = (query: Partial<Parameters<SemanticHandler['listTasks']>[0]>) =>
      handler
        .listTasks({ caller: '', pageSize: 10, includeArtifacts: true, ...query })
        .tasks.map((task) => task.id);
    expect(ids({ contextId: 'one' })).to.deep.equal([completed.id]);
    expect(ids({ state: 'input-required' })).to.deep.equal([waiting.id]);
    expect(ids({ statusAfter: T0 + 2_000 })).to.deep.equal([waiting.id]);
    expect(ids({ statusAfter: T0 + 1_000 })).to.deep.equal([waiting.id, completed.id]);
  });

  it('leaves out artifacts and older history on request', async () => {
    const { handler, completed } = await threeTasks();
    const [shown] = handler.listTasks({
      caller: '',
      contextId: 'one',
      pageSize: 10,
      includeArtifacts: false,
      historyLength: 1,
    }).tasks;
    expect(shown?.artifacts).to.deep.equal([]);
    expect(shown?.history).to.deep.equal(completed.history.slice(-1));
    expect(handler.getTask(completed.id, '', 0).history).to.deep.equal([]);
    expect(handler.getTask(completed.id, '').history).to.deep.equal(completed.history);
  });

  it('refuses a page token it did not give out', async () => {
    const { handler } = await threeTasks();
    for (const pageToken of ['x', '-1', '1.5', '3']) {
      const refused = await refusal(() =>
        handler.listTasks({ caller: '', pageSize: 1, pageToken, includeArtifacts: true }),
      );
      expect(refused.reason, pageToken).to.equal('INVALID_PARAMS');
      expect(refused.metadata).to.deep.equal({ field: 'pageToken' });
    }
  });
});
