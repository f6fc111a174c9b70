import { expect } from 'chai';
import type { TaskEvent } from '../../src/a2a/tasks/model.js';
import {
  Door,
  FINISH,
  message,
  refusal,
  send,
  setup,
  START,
  statusData,
  tick,
  until,
} from './semantic-support.js';

/** A2A tasks ending otherwise than by their turn: cancel, subscribe, timeouts and shutdown. */
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
    const subscription = await handler.subscribe(waiting.id, '', (event) => heard.push(event));
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
    expect(statusData(await handler.getTask(waiting.id, ''))['error']).to.deep.include({
      code: 'task_timeout',
    });
    expect((await handler.getTask(finished.id, '')).status.state).to.equal('completed');
    expect(logger.warnings).to.deep.equal(['a2a task timed out']);
  });

  it('a finished task keeps no timeout timer (one a message, an hour each, was a leak)', async () => {
    const { handler } = await setup({ taskTimeoutSeconds: 3600 });
    // the sweeper's timers, by task id (private: what leaked was exactly these)
    const sweeper = (handler as unknown as { sweeper: { timers: Map<string, unknown> } }).sweeper;
    const timers = () => sweeper.timers.size;
    const before = timers();
    for (let index = 0; index < 40; index += 1) {
      const started = await send(handler, message(START));
      expect((await send(handler, message(FINISH, { taskId: started.id }))).status.state).to.equal(
        'completed',
      );
    }
    expect(timers() - before, 'timers left by 40 finished tasks').to.be.below(5);
    handler.close();
  });

  it('close() stops the task timers', async function () {
    this.timeout(10_000);
    const { handler, understanding } = await setup({ taskTimeoutSeconds: 1 });
    const running = await handler.sendMessage({ message: message('wait'), caller: '' });
    handler.close();
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect((await handler.getTask(running.task.id, '')).status.state).to.equal('working');
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
