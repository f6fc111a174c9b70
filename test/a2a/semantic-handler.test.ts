import { expect } from 'chai';
import type { SemanticHandler } from '../../src/a2a/semantic-handler.js';
import type { TaskEvent } from '../../src/a2a/tasks/model.js';
import { MemoryTaskStore } from '../../src/a2a/tasks/memory/memory-task-store.js';
import type { StoredTask } from '../../src/a2a/tasks/task-store.js';
import { FINISH, message, refusal, send, setup, START, statusData, T0, tick } from './semantic-support.js';

/** The A2A semantics of messages, tasks and contexts, replays and listing, without a wire or a server. */
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

  it('skips the tracker read only for a context it made up: a named context or task is read', async () => {
    const { handler, agent } = await setup();
    const unseen: (boolean | undefined)[] = [];
    const handle = agent.handleMessage.bind(agent);
    agent.handleMessage = (incoming) => {
      unseen.push(incoming.unseen);
      return handle(incoming);
    };
    const first = await send(handler, message(START));
    await send(handler, message(FINISH, { taskId: first.id }));
    await send(handler, message(START, { contextId: first.contextId }));
    await send(handler, message(START, { contextId: 'named-by-the-caller' }));
    expect(unseen).to.deep.equal([true, undefined, undefined, undefined]);
  });

  it('continues a task as its context’s claim read it: named with its context, nothing is read before', async () => {
    const { store, reads } = claimReadingOpenTasks();
    const { handler } = await setup({}, { store });
    const first = await send(handler, message(START));
    const second = await send(handler, message(FINISH, { taskId: first.id, contextId: first.contextId }));
    expect(second.status.state).to.equal('completed');
    expect(reads(), 'task reads').to.equal(0);
    const third = await send(handler, message(START));
    await send(handler, message(FINISH, { taskId: third.id }));
    expect(reads(), 'a task named without its context is read for it, once').to.equal(1);
  });

  it('answers a task the claimed context does not hold as unknown, leaving no context behind', async () => {
    const { store } = claimReadingOpenTasks();
    const { handler } = await setup({}, { store });
    const unknown = handler.sendMessage({
      message: message(FINISH, { taskId: 'no-such-task', contextId: 'new-context' }),
      caller: '',
    });
    await expectRejection(unknown, /no-such-task/);
    expect((await store.stats()).contexts).to.equal(0);
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
    const superseded = await handler.getTask(first.id, '');
    expect(superseded.status.state).to.equal('canceled');
    expect(statusData(superseded)['cancel']).to.deep.equal({ by: 'superseded', task_id: second.id });
    // a finished task is not touched by the next one
    const third = await send(handler, message(START, { contextId: first.contextId }));
    expect((await handler.getTask(second.id, '')).status.state).to.equal('completed');
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
    expect((await handler.stats()).contexts).to.equal(2);
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
    expect(await handler.stats()).to.deep.equal({
      contexts: 0,
      tasks: 0,
      taskBytes: 0,
      replayBytes: 0,
      pushConfigs: 0,
    });
    await send(handler, message(START));
    await tick();
    const stats = await handler.stats();
    expect(stats.contexts).to.equal(1);
    expect(stats.tasks).to.equal(1);
    expect(stats.taskBytes).to.be.greaterThan(0);
    expect(stats.replayBytes).to.equal(stats.taskBytes);
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
    const first = await handler.listTasks({ caller: '', pageSize: 1, includeArtifacts: true });
    expect(first.tasks.map((task) => task.id)).to.deep.equal([waiting.id]);
    expect(first).to.include({ nextPageToken: '1', totalSize: 2 });
    const second = await handler.listTasks({
      caller: '',
      pageSize: 1,
      pageToken: '1',
      includeArtifacts: true,
    });
    expect(second.tasks.map((task) => task.id)).to.deep.equal([completed.id]);
    expect(second.nextPageToken).to.equal('');
    expect(second.tasks[0]?.artifacts).to.have.length(1);
    const end = await handler.listTasks({ caller: '', pageSize: 1, pageToken: '2', includeArtifacts: true });
    expect(end).to.deep.equal({ tasks: [], nextPageToken: '', totalSize: 2 });
  });

  it('filters by context, state and status time', async () => {
    const { handler, completed, waiting } = await threeTasks();
    const ids = async (query: Partial<Parameters<SemanticHandler['listTasks']>[0]>) =>
      (await handler.listTasks({ caller: '', pageSize: 10, includeArtifacts: true, ...query })).tasks.map(
        (task) => task.id,
      );
    expect(await ids({ contextId: 'one' })).to.deep.equal([completed.id]);
    expect(await ids({ state: 'input-required' })).to.deep.equal([waiting.id]);
    expect(await ids({ statusAfter: T0 + 2_000 })).to.deep.equal([waiting.id]);
    expect(await ids({ statusAfter: T0 + 1_000 })).to.deep.equal([waiting.id, completed.id]);
  });

  it('leaves out artifacts and older history on request', async () => {
    const { handler, completed } = await threeTasks();
    const [shown] = (
      await handler.listTasks({
        caller: '',
        contextId: 'one',
        pageSize: 10,
        includeArtifacts: false,
        historyLength: 1,
      })
    ).tasks;
    expect(shown?.artifacts).to.deep.equal([]);
    expect(shown?.history).to.deep.equal(completed.history.slice(-1));
    expect((await handler.getTask(completed.id, '', 0)).history).to.deep.equal([]);
    expect((await handler.getTask(completed.id, '')).history).to.deep.equal(completed.history);
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

/** A memory task store whose claims answer with the context's open tasks, as PostgreSQL's do; task reads counted. */
function claimReadingOpenTasks(): { store: MemoryTaskStore; reads: () => number } {
  const store = new MemoryTaskStore({ replayTtlSeconds: 600, now: () => T0 });
  let reads = 0;
  const getTask = store.getTask.bind(store);
  store.getTask = (id) => {
    reads += 1;
    return getTask(id);
  };
  const claimContext = store.claimContext.bind(store);
  store.claimContext = async (request) => {
    const outcome = await claimContext(request);
    if (outcome.kind !== 'claimed') return outcome;
    const tasks = await Promise.all(outcome.context.taskIds.map((id) => getTask(id)));
    const openTasks = tasks.filter(
      (stored): stored is StoredTask => stored?.task.status.state === 'input-required',
    );
    return { ...outcome, context: { ...outcome.context, openTasks } };
  };
  return { store, reads: () => reads };
}

async function expectRejection(promise: Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(String((error as Error).message)).to.match(message);
    return;
  }
  expect.fail('resolved');
}
