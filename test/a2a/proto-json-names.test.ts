import { expect } from 'chai';
import { withJsonNames } from '../../src/a2a/jsonrpc/proto-json-names.js';

describe('withJsonNames (ProtoJSON field names in A2A params)', () => {
  it("reads proto names as JSON names, at every level of the protocol's own objects", () => {
    const params = {
      message: {
        message_id: 'm1',
        context_id: 'c1',
        reference_task_ids: ['t0'],
        parts: [{ kind: 'text', text: 'hi' }],
      },
      configuration: { history_length: 2, accepted_output_modes: ['text/plain'] },
    };
    expect(withJsonNames(params)).to.deep.equal({
      message: {
        messageId: 'm1',
        contextId: 'c1',
        referenceTaskIds: ['t0'],
        parts: [{ kind: 'text', text: 'hi' }],
      },
      configuration: { historyLength: 2, acceptedOutputModes: ['text/plain'] },
    });
    expect(withJsonNames({ page_size: 5, context_id: 'c', include_artifacts: true })).to.deep.equal({
      pageSize: 5,
      contextId: 'c',
      includeArtifacts: true,
    });
  });

  it("leaves the caller's own objects alone: metadata and data parts keep their keys", () => {
    const params = {
      message: {
        messageId: 'm',
        metadata: { trace_id: 'x' },
        parts: [{ kind: 'data', data: { account_type: 'savings', slots: { to_account: 'a' } } }],
      },
    };
    expect(withJsonNames(params)).to.equal(params);
  });

  it('keeps the JSON name when a field is given both ways, and returns untouched input as it is', () => {
    expect(withJsonNames({ historyLength: 1, history_length: 9 })).to.deep.equal({ historyLength: 1 });
    expect(withJsonNames({ history_length: 9, historyLength: 1 })).to.deep.equal({ historyLength: 1 });
    const plain = { id: 't', historyLength: 3 };
    expect(withJsonNames(plain)).to.equal(plain);
    expect(withJsonNames('text')).to.equal('text');
    expect(withJsonNames(null)).to.equal(null);
  });

  it('never sets a prototype from a `__proto__` key', () => {
    const params = JSON.parse('{"__proto__": {"polluted": true}, "context_id": "c"}') as object;
    const result = withJsonNames(params) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).to.equal(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).to.equal(true);
    expect(result['contextId']).to.equal('c');
    expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
  });
});
