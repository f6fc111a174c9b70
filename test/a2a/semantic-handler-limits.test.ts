import { expect } from 'chai';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../../src/a2a/semantic-handler.js';
import type { A2aMessage } from '../../src/a2a/tasks/model.js';
import { FINISH, message, refusal, send, setup, START, statusData, tick } from './semantic-support.js';

/** The A2A handler's bounds: message and task bytes, tasks per context, and max_contexts. */
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
    expect((await handler.stats()).tasks).to.equal(0);
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
    expect(
      (await handler.getTask(first.id, '')).history.filter((item) => item.role === 'user'),
    ).to.have.length(2);
    expect(
      (await handler.listTasks({ caller: '', pageSize: 10, includeArtifacts: true })).totalSize,
    ).to.equal(2);
  });

  it('max_context_bytes forgets a context’s oldest finished tasks', async () => {
    const { handler } = await setup({ limits: { maxContextBytes: 3_000 } });
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const task = await send(handler, message(START, { contextId: 'ctx' }));
      await send(handler, message(FINISH, { taskId: task.id }));
      ids.push(task.id);
    }
    const kept = await handler.listTasks({ caller: '', pageSize: 10, includeArtifacts: true });
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
    expect((await handler.stats()).taskBytes).to.be.at.most(3_000);
    expect((await refusal(() => handler.getTask(ids[0] as string, ''))).reason).to.equal('TASK_NOT_FOUND');
    expect((await handler.getTask(ids[2] as string, '')).status.state).to.equal('completed');
    // the replay answers get a quarter of the task memory
    expect((await handler.stats()).replayBytes).to.be.at.most(750);
  });

  it('over max_task_memory_bytes with waiting tasks alone, the heaviest caller’s waiting context goes', async () => {
    const { handler, logger } = await setup({ limits: { maxTaskMemoryBytes: 1_000 } });
    const first = await send(handler, message(START), 'alice');
    await send(handler, message(START), 'alice');
    expect((await refusal(() => handler.getTask(first.id, 'alice'))).reason).to.equal('TASK_NOT_FOUND');
    const evicted = logger.warningFields.find((fields) => fields['taskId'] === first.id);
    expect(evicted).to.deep.include({ reason: 'memory' });
    expect((await handler.stats()).contexts).to.equal(1);
  });

  it('applies the limits as soon as a task is accepted, not only when its turn is over', async () => {
    const { handler, understanding } = await setup({}, { limits: { perContext: 1 } });
    const first = await send(handler, message(START, { contextId: 'ctx' }));
    await send(handler, message(FINISH, { taskId: first.id }));
    const running = await handler.sendMessage({ message: message('wait', { contextId: 'ctx' }), caller: '' });
    expect((await refusal(() => handler.getTask(first.id, ''))).reason).to.equal('TASK_NOT_FOUND');
    understanding.release();
    await running.done;
  });

  it('taskLimits bounds the tasks kept per context', async () => {
    const { handler } = await setup({}, { limits: { perContext: 1 } });
    const first = await send(handler, message(START, { contextId: 'ctx' }));
    await send(handler, message(FINISH, { taskId: first.id }));
    const second = await send(handler, message(START, { contextId: 'ctx' }));
    expect((await refusal(() => handler.getTask(first.id, ''))).reason).to.equal('TASK_NOT_FOUND');
    expect((await handler.getTask(second.id, '')).status.state).to.equal('input-required');
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
    expect((await handler.getTask(waiting.id, '')).status.state).to.equal('input-required');
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
    const failed = await handler.getTask(older.id, 'alice');
    expect(failed.status.state).to.equal('failed');
    expect(statusData(failed)['error']).to.deep.include({ code: 'evicted_fair_share' });
    expect((await handler.getTask(finished.id, 'alice')).status.state).to.equal('completed');
    expect(logger.warnings).to.deep.equal(['a2a task evicted']);
    expect(logger.warningFields).to.deep.equal([
      { taskId: older.id, contextId: 'older', reason: 'fair_share' },
    ]);
  });
});
