/**
 * A2A task signals over Redis pub/sub (several workers on one SQLite file with a Redis lock store):
 * what one process sends the others hear (never itself), a burst arrives whole and in order, the
 * subscription comes back after Redis drops the connection, other deployments' channels stay apart,
 * and closing leaves no connection behind to keep the process alive.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { ConfigReader } from '../../src/stores/config-reader.js';
import { readRedisConnection } from '../../src/stores/locks/redis-connection.js';
import { RedisTaskSignals, taskSignalChannel } from '../../src/stores/locks/redis-task-signals.js';
import { SILENT_STORE_LOGGER } from '../../src/stores/store-logger.js';
import { REDIS_URL, requireRedis } from '../support/redis.js';
import { waitFor } from '../support/timing.js';

interface Heard {
  readonly settled: string[];
  readonly cancel: string[];
}

function connection(raw: Record<string, unknown> = {}) {
  const reader = new ConfigReader({
    section: 'lock_store',
    raw: { url: REDIS_URL, key_prefix: 'parleysignals', ...raw },
  });
  const result = readRedisConnection(reader, { projectRoot: process.cwd(), defaultDb: 0 });
  reader.throwIfInvalid();
  return result as NonNullable<typeof result>;
}

function listening(signals: RedisTaskSignals): Heard {
  const heard: Heard = { settled: [], cancel: [] };
  signals.listen({ settled: (id) => heard.settled.push(id), cancel: (id) => heard.cancel.push(id) });
  return heard;
}

describe('Redis task signals', function () {
  this.timeout(20_000);
  const opened: RedisTaskSignals[] = [];
  let admin: Redis;
  const signals = (raw: Record<string, unknown> = {}) => {
    const made = new RedisTaskSignals({ connection: connection(raw), logger: SILENT_STORE_LOGGER });
    opened.push(made);
    return made;
  };
  const subscribers = async (channel: string): Promise<number> => {
    const [, count] = (await admin.pubsub('NUMSUB', channel)) as [string, number];
    return Number(count);
  };

  before(async function () {
    await requireRedis(this);
    admin = new Redis(REDIS_URL);
  });
  afterEach(async () => {
    for (const made of opened.splice(0)) await made.close();
  });
  after(() => admin?.disconnect());

  it('delivers a burst of settled and cancel signals to the other process, not back to the sender', async () => {
    const channel = taskSignalChannel(connection());
    const sender = signals();
    const receiver = signals();
    const own = listening(sender);
    const heard = listening(receiver);
    await waitFor(async () => (await subscribers(channel)) === 2, 'both subscribed');
    const ids = Array.from({ length: 50 }, (_, index) => `task-${index}`);
    for (const id of ids) sender.settled(id);
    sender.cancel('task-c');
    await waitFor(() => heard.settled.length === ids.length && heard.cancel.length === 1, 'every signal');
    expect(heard.settled).to.deep.equal(ids);
    expect(heard.cancel).to.deep.equal(['task-c']);
    expect(own.settled, 'the sender hears itself').to.deep.equal([]);
  });

  it('keeps deployments apart: another key prefix or database is another channel', async () => {
    expect(taskSignalChannel(connection())).to.not.equal(
      taskSignalChannel(connection({ key_prefix: 'other' })),
    );
    expect(taskSignalChannel(connection({ db: 3 }))).to.not.equal(taskSignalChannel(connection({ db: 4 })));
    const sender = signals({ key_prefix: 'other' });
    const heard = listening(signals());
    await waitFor(async () => (await subscribers(taskSignalChannel(connection()))) === 1, 'subscribed');
    sender.settled('elsewhere');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.settled).to.deep.equal([]);
  });

  it('subscribes again after Redis drops the connection', async () => {
    const channel = taskSignalChannel(connection());
    const sender = signals();
    const heard = listening(signals());
    await waitFor(async () => (await subscribers(channel)) === 1, 'subscribed');
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    await waitFor(async () => (await subscribers(channel)) === 1, 'subscribed again');
    sender.cancel('after-the-drop');
    await waitFor(() => heard.cancel.length === 1, 'the signal after the drop');
    expect(heard.cancel).to.deep.equal(['after-the-drop']);
  });

  it('ignores payloads it did not write', async () => {
    const channel = taskSignalChannel(connection());
    const heard = listening(signals());
    await waitFor(async () => (await subscribers(channel)) === 1, 'subscribed');
    for (const payload of [
      'not json',
      '{"from":"x","kind":"settled"}',
      '{"from":"x","kind":"nope","taskId":"t"}',
    ])
      await admin.publish(channel, payload);
    await admin.publish(channel, JSON.stringify({ from: 'x', kind: 'settled', taskId: 'real' }));
    await waitFor(() => heard.settled.length === 1, 'the real signal');
    expect(heard).to.deep.equal({ settled: ['real'], cancel: [] });
  });

  it('leaves no subscription behind once closed', async () => {
    const channel = taskSignalChannel(connection());
    for (let round = 0; round < 5; round += 1) {
      const made = signals();
      listening(made);
      made.settled('x');
      await made.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await subscribers(channel)).to.equal(0);
  });
});
