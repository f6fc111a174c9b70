import { expect } from 'chai';
import type { Response } from 'express';
import { turnFailure } from '../../src/a2a/turn-runner.js';
import { sendTurnFailure } from '../../src/channels/http-errors.js';
import { ERROR_KINDS, errorKindOf } from '../../src/core/error-kinds.js';
import { AppError } from '../../src/core/errors.js';
import type { ErrorCode } from '../../src/core/errors.js';

/** What sendTurnFailure wrote: the status and the JSON body. */
function answered(error: unknown): { status: number; body: Record<string, unknown> } {
  const written: { status: number; body: Record<string, unknown> } = { status: 0, body: {} };
  const response = {
    headersSent: false,
    status(code: number) {
      written.status = code;
      return this;
    },
    json(body: Record<string, unknown>) {
      written.body = body;
      return this;
    },
  } as unknown as Response;
  sendTurnFailure(response, error);
  return written;
}

const failing = (code: ErrorCode) => new AppError({ code, message: `${code} happened` });

describe('error codes at the edges (one table of kinds, one answer per kind and edge)', () => {
  it('gives every code a kind, and a failure without a code the kind of a failure', () => {
    for (const code of Object.keys(ERROR_KINDS) as ErrorCode[])
      expect(['bad_input', 'conflict', 'unavailable', 'failure']).to.include(ERROR_KINDS[code]);
    expect(errorKindOf(new Error('boom'))).to.equal('failure');
    expect(errorKindOf({ code: 'NOT_A_CODE' })).to.equal('failure');
  });

  it('answers a failed REST turn by kind: 400 bad input, 503 retry later, 500 otherwise', () => {
    expect(answered(failing('CONVERSATION_ID_INVALID'))).to.deep.include({ status: 400 });
    for (const code of [
      'STORE_UNAVAILABLE',
      'LOCK_TIMEOUT',
      'TRACKER_CONFLICT',
      'SHUTTING_DOWN',
      'ACTION_SERVER_TIMEOUT',
      'LLM_UNREACHABLE',
    ] as const) {
      const { status, body } = answered(failing(code));
      expect([code, status]).to.deep.equal([code, 503]);
      expect(body).to.deep.include({ reason: 'ServiceUnavailable', details: { code } });
    }
    const broken = answered(failing('ACTION_SERVER_BAD_RESPONSE'));
    expect(broken.status).to.equal(500);
    expect(broken.body).to.deep.include({
      reason: 'ConversationError',
      details: { code: 'ACTION_SERVER_BAD_RESPONSE' },
    });
    // a failure without a code shows none
    expect(answered(new Error('boom')).body['details']).to.deep.equal({});
  });

  it('fails an A2A task by kind, naming the code that caused it', () => {
    expect(turnFailure(failing('STORE_UNAVAILABLE')).data['error']).to.deep.include({
      code: 'unavailable',
      cause: 'STORE_UNAVAILABLE',
    });
    expect(turnFailure(failing('ACTION_NOT_FOUND')).data['error']).to.deep.include({
      code: 'turn_failed',
      cause: 'ACTION_NOT_FOUND',
    });
    const plain = turnFailure(new Error('boom'));
    expect(plain.state).to.equal('failed');
    expect(plain.data['error']).to.deep.equal({
      code: 'turn_failed',
      message: 'The assistant could not handle the message.',
    });
  });
});
