/**
 * Finding (from the attack review): a push receiver that answers one byte every few seconds held each
 * delivery for ever (the attempt timeout was only a silence timeout), with its socket and its body:
 * 10 configs × 40 turns grew the heap by 195 MB and 400 file descriptors, and the process did not exit
 * after SIGTERM. Now an attempt has a deadline, the connection is dropped once the status is read, at
 * most 100 deliveries are under way (more are dropped and logged), and a shutdown abandons them.
 */
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { expect } from 'chai';
import { DEFAULT_PUSH_TIMEOUT_MS, PushSender } from '../../src/a2a/push/push-sender.js';
import { PushService } from '../../src/a2a/push/push-service.js';
import { UrlGuard } from '../../src/a2a/push/url-guard.js';
import { pushTaskHarness } from '../support/push-tasks.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { send } from '../a2a/hardening-support.js';
import type { V03Task } from '../a2a/hardening-support.js';
import { recordingLogger } from '../support/recording-logger.js';
import { callAs, startSecureServer, stillServes } from './support.js';

/** an HTTP "receiver" that writes its answer one byte every `everyMs` and never finishes */
async function tricklingReceiver(everyMs: number) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const answer = 'HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n';
    let index = 0;
    const timer = setInterval(() => {
      if (!socket.writable) return;
      socket.write(answer[index % answer.length] ?? 'x');
      index += 1;
    }, everyMs);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const guard = new UrlGuard({ allowedHosts: ['127.0.0.1'] });

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitUntil(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Security: a push receiver that trickles its answer', function () {
  this.timeout(30_000);

  it('holds an attempt no longer than its deadline, although bytes keep coming', async () => {
    const trickle = await tricklingReceiver(50);
    const logger = recordingLogger();
    const lines = logger.messages;
    const sender = new PushSender({
      guard,
      logger,
      timeoutMs: 300,
      retries: 1,
      backoffMs: 10,
    });
    try {
      // two attempts of 300 ms; with only a silence timeout, the trickle would hold it for ever
      const delivered = await within(
        15_000,
        sender.deliver({ url: new URL(trickle.url), headers: {}, body: '{}', taskId: 't', configId: 'c' }),
      );
      expect(delivered).to.equal(false);
      expect(lines).to.include('a2a push notification failed');
      await waitUntil(() => trickle.open() === 0, 10_000);
    } finally {
      await trickle.close();
    }
  });

  it('drops the connection once the status line and headers are in, whatever the body does', async () => {
    const trickle = await tricklingReceiver(1);
    const sender = new PushSender({ guard, logger: recordingLogger(), timeoutMs: 20_000 });
    try {
      // the headers (48 bytes) arrive within ~50 ms; the million-byte body would take 17 minutes, so
      // a sender reading it would hold the attempt until its 20 s deadline
      const delivered = await within(
        10_000,
        sender.deliver({ url: new URL(trickle.url), headers: {}, body: '{}', taskId: 't', configId: 'c' }),
      );
      expect(delivered).to.equal(true);
      await waitUntil(() => trickle.open() === 0, 10_000);
    } finally {
      await trickle.close();
    }
  });

  it('keeps at most maxInFlight deliveries under way, dropping (and logging) the rest; close abandons them', async () => {
    const trickle = await tricklingReceiver(1_000);
    const logger = recordingLogger();
    const lines = logger.messages;
    const harness = await pushTaskHarness();
    const service = new PushService({
      ...harness,
      guard,
      sender: new PushSender({ guard, logger, timeoutMs: 60_000 }),
      logger,
      maxInFlight: 3,
    });
    try {
      await harness.create('t1', 'caller');
      for (let index = 0; index < 5; index += 1)
        await service.set({ taskId: 't1', url: trickle.url, version: '1.0' }, 'caller');
      harness.publish({
        kind: 'status-update',
        taskId: 't1',
        contextId: 'c1',
        status: { state: 'input-required', timestamp: new Date().toISOString() },
        final: true,
      });
      await waitUntil(() => service.inFlight === 3, 10_000);
      expect(lines.filter((line) => /too many deliveries under way/.test(line))).to.have.length(2);
      await waitUntil(() => trickle.open() === 3, 10_000);
      service.close();
      // not abandoned, they would run until their 60 s deadline
      await within(20_000, service.settled());
      expect(service.inFlight).to.equal(0);
      await waitUntil(() => trickle.open() === 0, 10_000);
    } finally {
      await trickle.close();
    }
  });
});

describe('Security: a trickling push receiver against a running server', function () {
  this.timeout(60_000);

  it('lets the server shut down with deliveries under way, closing their connections', async () => {
    const trickle = await tricklingReceiver(500);
    const server: ParleyServer = await startSecureServer({
      a2a: ['push_notifications_enabled: true', 'push_notification_allowed_hosts: ["127.0.0.1"]'],
    });
    let closed = false;
    try {
      const task = (await callAs(server, 'orchestrator', send('/transfer_money'))).body['result'] as V03Task;
      for (let index = 0; index < 3; index += 1)
        await callAs(server, 'orchestrator', {
          jsonrpc: '2.0',
          id: index,
          method: 'tasks/pushNotificationConfig/set',
          params: { taskId: task.id, pushNotificationConfig: { url: trickle.url } },
        });
      await callAs(
        server,
        'orchestrator',
        send('/SetSlots(recipient=Anna)', { taskId: task.id, contextId: task.contextId }),
      );
      await waitUntil(() => trickle.open() === 3, 10_000);
      expect(await stillServes(server)).to.equal(true);
      // abandoned at once, not when each attempt's own deadline (10 s) has passed
      await within(DEFAULT_PUSH_TIMEOUT_MS / 2, server.close());
      closed = true;
      await waitUntil(() => trickle.open() === 0, DEFAULT_PUSH_TIMEOUT_MS / 2);
    } finally {
      if (!closed) await server.close();
      await trickle.close();
    }
  });
});
