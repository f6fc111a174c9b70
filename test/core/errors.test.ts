import { expect } from 'chai';
import { AppError, assertNever } from '../../src/core/errors.js';

describe('runtime failures as typed errors', () => {
  it('carry a stable code, the message, details and the cause', () => {
    const cause = new Error('connection refused');
    const error = new AppError({
      code: 'STORE_UNAVAILABLE',
      message: 'The tracker store is unavailable.',
      details: { host: 'db' },
      cause,
    });
    expect(error).to.be.instanceOf(Error);
    expect(error).to.include({
      name: 'AppError',
      code: 'STORE_UNAVAILABLE',
      message: 'The tracker store is unavailable.',
      cause,
    });
    expect(error.details).to.deep.equal({ host: 'db' });
    expect(String(error)).to.equal('AppError: The tracker store is unavailable.');
  });

  it('fail with INTERNAL and the unexpected value when an exhaustive switch meets an unknown kind', () => {
    const unknown = { kind: 'teleport' } as never;
    expect(() => assertNever(unknown, 'step kind'))
      .to.throw(AppError, 'Unexpected step kind: {"kind":"teleport"}')
      .with.property('code', 'INTERNAL');
    expect(() => assertNever('x' as never)).to.throw('Unexpected value: "x"');
  });
});
