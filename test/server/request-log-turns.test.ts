/** Lines about a conversation carry the id of the request running its turn, and only while it runs. */
import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../src/runtime/logger.js';
import { RequestLog, requestLogger } from '../../src/server/request-log.js';

interface Line {
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

function linesLogger(lines: Line[], bound: Record<string, unknown> = {}): Logger {
  const keep = (fields: Record<string, unknown>, message: string) =>
    void lines.push({ fields: { ...bound, ...fields }, message });
  return {
    info: keep,
    warn: keep,
    error: keep,
    debug: keep,
    child: (bindings) => linesLogger(lines, { ...bound, ...bindings }),
  };
}

/** a request through the middleware, as Express would hand it over */
function throughMiddleware(log: RequestLog, id: string): { request: Request; finish: () => void } {
  const request = { headers: { 'x-request-id': id }, originalUrl: '/webhooks/rest/webhook', method: 'POST' };
  const response = Object.assign(new EventEmitter(), {
    statusCode: 200,
    writableFinished: true,
    setHeader: () => undefined,
  });
  let passed = false;
  log.middleware()(
    request as unknown as Request,
    response as unknown as Response,
    (() => {
      passed = true;
    }) as NextFunction,
  );
  expect(passed).to.equal(true);
  return { request: request as unknown as Request, finish: () => void response.emit('finish') };
}

describe('RequestLog turns', () => {
  it('gives lines about a running turn its request id, and takes it away when the turn ends', () => {
    const lines: Line[] = [];
    const log = new RequestLog({ logger: linesLogger(lines) });
    const first = throughMiddleware(log, 'req-a');
    const second = throughMiddleware(log, 'req-b');
    const turnA = log.begin(first.request, 'alice');
    const turnB = log.begin(second.request, 'bob');
    log.logger.warn({ conversationId: 'alice' }, 'during a');
    log.logger.warn({ conversationId: 'bob' }, 'during b');
    log.logger.warn({ conversationId: 'carol' }, 'no turn');
    log.logger.child?.({ conversationId: 'bob' }).error({}, 'child during b');
    turnA?.end();
    log.logger.warn({ conversationId: 'alice' }, 'after a');
    const idOf = (message: string) => lines.find((line) => line.message === message)?.fields['requestId'];
    expect(idOf('during a')).to.equal('req-a');
    expect(idOf('during b')).to.equal('req-b');
    expect(idOf('child during b')).to.equal('req-b');
    expect(idOf('no turn')).to.equal(undefined);
    expect(idOf('after a')).to.equal(undefined);
    turnB?.end();
  });

  it("puts a turn's fields on its request's line until that line is written", () => {
    const lines: Line[] = [];
    const log = new RequestLog({ logger: linesLogger(lines) });
    const { request, finish } = throughMiddleware(log, 'req-c');
    const turn = log.begin(request, 'carol');
    expect(turn?.annotate({ conversationId: 'carol', turnMs: 3 })).to.equal(true);
    finish();
    expect(turn?.annotate({ late: true })).to.equal(false);
    const requestLine = lines.find((line) => line.message === 'http.request');
    expect(requestLine?.fields).to.include({ requestId: 'req-c', conversationId: 'carol', turnMs: 3 });
    expect(requestLine?.fields).not.to.have.property('late');
  });

  it('links nothing for a request it has not seen, and logs such a request through the fallback', () => {
    const lines: Line[] = [];
    const log = new RequestLog({ logger: linesLogger(lines) });
    expect(log.begin({}, 'dave')).to.equal(undefined);
    expect(log.begin(undefined, 'dave')).to.equal(undefined);
    const fallback = linesLogger(lines, { fallback: true });
    requestLogger({}, fallback).info({}, 'unseen');
    const { request } = throughMiddleware(log, 'req-e');
    requestLogger(request, fallback).info({}, 'seen');
    expect(lines.find((line) => line.message === 'unseen')?.fields).to.deep.equal({ fallback: true });
    expect(lines.find((line) => line.message === 'seen')?.fields).to.deep.equal({ requestId: 'req-e' });
  });

  it('keeps the newer request of a conversation when an older one ends late', () => {
    const lines: Line[] = [];
    const log = new RequestLog({ logger: linesLogger(lines) });
    const older = log.begin(throughMiddleware(log, 'req-old').request, 'erin');
    const newer = log.begin(throughMiddleware(log, 'req-new').request, 'erin');
    older?.end();
    log.logger.info({ conversationId: 'erin' }, 'still newer');
    expect(lines.find((line) => line.message === 'still newer')?.fields['requestId']).to.equal('req-new');
    newer?.end();
  });
});
