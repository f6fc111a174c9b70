/** One log line per turn: on the request that ran it when there is one, else a line of its own. */
import { expect } from 'chai';
import type { Agent } from '../../src/runtime/agent.js';
import type { RequestTurns } from '../../src/server/request-log.js';
import { TurnGate } from '../../src/server/turn-gate.js';
import { recordingLogger } from '../support/recording-logger.js';

/** links every turn given a request; records what goes on the request's line and whether the link ended */
function requestTurns(annotated: Record<string, unknown>[], ended: string[] = []): RequestTurns {
  return {
    begin: (request, conversationId) =>
      request
        ? {
            annotate: (fields) => annotated.push({ ...fields }) > 0,
            end: () => void ended.push(conversationId),
          }
        : undefined,
  };
}

describe('TurnGate turn logging', () => {
  // track() runs the turn it is given: the agent is not used
  const agent = {} as Agent;

  it('puts a finished turn on the running request and logs nothing itself', async () => {
    const logger = recordingLogger();
    const annotated: Record<string, unknown>[] = [];
    const ended: string[] = [];
    const gate = new TurnGate({ agent, logger, requests: requestTurns(annotated, ended) });
    expect(await gate.track('rest', 'alice', async () => 'done', {})).to.equal('done');
    expect(logger.messages).to.deep.equal([]);
    expect(ended).to.deep.equal(['alice']);
    expect(annotated).to.have.length(1);
    expect(annotated[0]).to.include({ conversationId: 'alice', channel: 'rest', outcome: 'ok' });
    expect(annotated[0]?.['turnMs']).to.be.a('number');
  });

  it('logs turn.finished when no request carries the turn (socket.io, a turn outliving its request)', async () => {
    const logger = recordingLogger();
    const annotated: Record<string, unknown>[] = [];
    const gate = new TurnGate({ agent, logger, requests: requestTurns(annotated) });
    await gate.track('socketio', 'bob', async () => undefined);
    expect(annotated).to.deep.equal([]);
    expect(logger.messages).to.deep.equal(['turn.finished']);
  });

  it('logs a failed turn on a line of its own, at error level, request or not', async () => {
    const logger = recordingLogger();
    const annotated: Record<string, unknown>[] = [];
    const gate = new TurnGate({ agent, logger, requests: requestTurns(annotated) });
    const failing = gate.track(
      'rest',
      'carol',
      async () => {
        throw new Error('boom');
      },
      {},
    );
    await failing.then(
      () => expect.fail('the turn should fail'),
      (error: Error) => expect(error.message).to.equal('boom'),
    );
    expect(logger.messages).to.deep.equal(['turn.failed']);
    expect(annotated).to.deep.equal([]);
  });
});
