import { expect } from 'chai';
import { AppError } from '../../../src/core/errors.js';
import type { JsonPatchOperation } from '../../../src/core/events/index.js';
import { applyPatch, formatPointer, parsePatch, parsePointer } from '../../../src/core/events/index.js';
import { deepFreeze } from './builders.js';

function patchErrorOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(AppError);
    expect((error as AppError).code).to.equal('JSON_PATCH_INVALID');
    return error as AppError;
  }
  throw new Error('expected a JSON_PATCH_INVALID error');
}

describe('JSON Patch (RFC 6902)', () => {
  describe('add', () => {
    it('adds an object member and replaces an existing one', () => {
      expect(applyPatch({ a: 1 }, [{ op: 'add', path: '/b', value: 2 }])).to.deep.equal({ a: 1, b: 2 });
      expect(applyPatch({ a: 1 }, [{ op: 'add', path: '/a', value: 3 }])).to.deep.equal({ a: 3 });
    });

    it('inserts into an array at an index and appends with "-"', () => {
      expect(applyPatch([1, 3], [{ op: 'add', path: '/1', value: 2 }])).to.deep.equal([1, 2, 3]);
      expect(applyPatch([1, 2], [{ op: 'add', path: '/-', value: 3 }])).to.deep.equal([1, 2, 3]);
      expect(applyPatch([1, 2], [{ op: 'add', path: '/2', value: 3 }])).to.deep.equal([1, 2, 3]);
    });

    it('replaces the whole document at the empty path', () => {
      expect(applyPatch({ a: 1 }, [{ op: 'add', path: '', value: [1] }])).to.deep.equal([1]);
    });

    it('adds into nested containers', () => {
      const doc = { frames: [{ id: 'a', ctx: {} }] };
      const result = applyPatch(doc, [{ op: 'add', path: '/frames/0/ctx/x', value: { y: [1] } }]);
      expect(result).to.deep.equal({ frames: [{ id: 'a', ctx: { x: { y: [1] } } }] });
    });

    it('rejects a missing parent, an index past the end and a leading zero', () => {
      patchErrorOf(() => applyPatch({}, [{ op: 'add', path: '/a/b', value: 1 }]));
      patchErrorOf(() => applyPatch([1], [{ op: 'add', path: '/3', value: 1 }]));
      patchErrorOf(() => applyPatch([1, 2], [{ op: 'add', path: '/01', value: 1 }]));
      patchErrorOf(() => applyPatch([1], [{ op: 'add', path: '/x', value: 1 }]));
    });

    it('rejects adding a member to a primitive', () => {
      patchErrorOf(() => applyPatch({ a: 1 }, [{ op: 'add', path: '/a/b', value: 1 }]));
    });
  });

  describe('remove', () => {
    it('removes an object member and an array element', () => {
      expect(applyPatch({ a: 1, b: 2 }, [{ op: 'remove', path: '/a' }])).to.deep.equal({ b: 2 });
      expect(applyPatch([1, 2, 3], [{ op: 'remove', path: '/1' }])).to.deep.equal([1, 3]);
    });

    it('rejects a missing member, an out-of-range index, "-" and the whole document', () => {
      patchErrorOf(() => applyPatch({ a: 1 }, [{ op: 'remove', path: '/b' }]));
      patchErrorOf(() => applyPatch([1], [{ op: 'remove', path: '/1' }]));
      patchErrorOf(() => applyPatch([1], [{ op: 'remove', path: '/-' }]));
      patchErrorOf(() => applyPatch({ a: 1 }, [{ op: 'remove', path: '' }]));
    });

    it('does not treat inherited properties as members', () => {
      patchErrorOf(() => applyPatch({}, [{ op: 'remove', path: '/toString' }]));
    });
  });

  describe('replace', () => {
    it('replaces an existing member, an array element and the whole document', () => {
      expect(applyPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: 'x' }])).to.deep.equal({ a: 'x' });
      expect(applyPatch([1, 2], [{ op: 'replace', path: '/0', value: 9 }])).to.deep.equal([9, 2]);
      expect(applyPatch({ a: 1 }, [{ op: 'replace', path: '', value: null }])).to.equal(null);
    });

    it('rejects replacing a member that does not exist', () => {
      patchErrorOf(() => applyPatch({ a: 1 }, [{ op: 'replace', path: '/b', value: 1 }]));
      patchErrorOf(() => applyPatch([1], [{ op: 'replace', path: '/1', value: 1 }]));
    });
  });

  describe('move', () => {
    it('moves a member to another place', () => {
      const result = applyPatch({ a: { b: 1 }, c: {} }, [{ op: 'move', from: '/a/b', path: '/c/d' }]);
      expect(result).to.deep.equal({ a: {}, c: { d: 1 } });
    });

    it('moves array elements (remove first, then add)', () => {
      expect(applyPatch([1, 2, 3, 4], [{ op: 'move', from: '/1', path: '/3' }])).to.deep.equal([1, 3, 4, 2]);
    });

    it('is a no-op when from equals path, but still needs from to exist', () => {
      const doc = { a: 1 };
      expect(applyPatch(doc, [{ op: 'move', from: '/a', path: '/a' }])).to.equal(doc);
      patchErrorOf(() => applyPatch(doc, [{ op: 'move', from: '/b', path: '/b' }]));
    });

    it('moves a value under a member whose name merely ends like the source', () => {
      // "/b/a/" is the empty-named member of /b/a, not a child of "/a"
      const doc = { a: 1, b: { a: {} } };
      expect(applyPatch(doc, [{ op: 'move', from: '/a', path: '/b/a/' }])).to.deep.equal({
        b: { a: { '': 1 } },
      });
    });

    it('rejects moving a value into its own child and moving a missing value', () => {
      patchErrorOf(() => applyPatch({ a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }]));
      patchErrorOf(() => applyPatch({ a: 1 }, [{ op: 'move', from: '/x', path: '/y' }]));
    });
  });

  describe('copy', () => {
    it('copies a value to another place', () => {
      const result = applyPatch({ a: [1, 2] }, [{ op: 'copy', from: '/a', path: '/b' }]);
      expect(result).to.deep.equal({ a: [1, 2], b: [1, 2] });
    });

    it('rejects copying a missing value', () => {
      patchErrorOf(() => applyPatch({ a: 1 }, [{ op: 'copy', from: '/x', path: '/y' }]));
    });
  });

  describe('test', () => {
    it('passes on JSON-equal values regardless of member order', () => {
      const doc = { a: { x: 1, y: [1, { z: null }] } };
      const value = { y: [1, { z: null }], x: 1 };
      expect(applyPatch(doc, [{ op: 'test', path: '/a', value }])).to.equal(doc);
    });

    it('fails on different values and different types', () => {
      patchErrorOf(() => applyPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]));
      patchErrorOf(() => applyPatch({ a: 1 }, [{ op: 'test', path: '/a', value: '1' }]));
      patchErrorOf(() => applyPatch({ a: [1] }, [{ op: 'test', path: '/a', value: { 0: 1 } }]));
    });

    it('compares lists by length and every item, and objects by every member', () => {
      const doc = { list: [1, 2], object: { a: 1, b: 2 } };
      const fails = (path: string, value: unknown) =>
        patchErrorOf(() => applyPatch(doc, [{ op: 'test', path, value }]));
      fails('/list', [1]);
      fails('/list', [1, 2, 3]);
      fails('/list', [1, 3]);
      fails('/object', { a: 1 });
      fails('/object', { a: 1, b: 2, c: 3 });
      fails('/object', { a: 1, b: 3 });
      fails('/object', { a: 1, c: 2 });
      expect(applyPatch(doc, [{ op: 'test', path: '/object', value: { b: 2, a: 1 } }])).to.equal(doc);
    });

    it('cannot test the position past the end of a list', () => {
      patchErrorOf(() => applyPatch({ list: [1] }, [{ op: 'test', path: '/list/-', value: 1 }]));
      patchErrorOf(() => applyPatch({ list: [1] }, [{ op: 'copy', from: '/list/-', path: '/x' }]));
    });

    it('stops the whole patch when a test fails', () => {
      const ops: JsonPatchOperation[] = [
        { op: 'add', path: '/b', value: 1 },
        { op: 'test', path: '/a', value: 2 },
      ];
      const error = patchErrorOf(() => applyPatch({ a: 1 }, ops));
      expect(error.details).to.deep.include({ index: 1 });
    });
  });

  describe('JSON pointers', () => {
    it('unescapes ~1 to "/" and ~0 to "~" (in that order)', () => {
      expect(parsePointer('/a~1b/c~0d/~01')).to.deep.equal(['a/b', 'c~d', '~1']);
      const doc = { 'a/b': { 'c~d': 1 } };
      expect(applyPatch(doc, [{ op: 'replace', path: '/a~1b/c~0d', value: 2 }])).to.deep.equal({
        'a/b': { 'c~d': 2 },
      });
    });

    it('formats tokens back with escaping', () => {
      expect(formatPointer(['a/b', 'c~d', ''])).to.equal('/a~1b/c~0d/');
      expect(parsePointer(formatPointer(['~1', '/', '']))).to.deep.equal(['~1', '/', '']);
    });

    it('addresses the empty member name', () => {
      expect(applyPatch({ '': 1 }, [{ op: 'replace', path: '/', value: 2 }])).to.deep.equal({ '': 2 });
    });

    it('rejects a pointer without a leading slash and a bad escape', () => {
      patchErrorOf(() => parsePointer('a'));
      patchErrorOf(() => parsePointer('/a~2'));
      patchErrorOf(() => parsePointer('/a~'));
    });

    it('keeps "__proto__" an ordinary member', () => {
      const result = applyPatch({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]);
      expect(Object.getPrototypeOf(result)).to.equal(Object.prototype);
      expect(Object.keys(result as object)).to.deep.equal(['__proto__']);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });
  });

  describe('immutability', () => {
    it('never mutates the input document, even when it is frozen', () => {
      const doc = deepFreeze({ list: [{ a: 1 }, { b: 2 }], obj: { c: 3 } });
      const ops = deepFreeze<JsonPatchOperation[]>([
        { op: 'add', path: '/list/-', value: { d: 4 } },
        { op: 'remove', path: '/list/0' },
        { op: 'replace', path: '/obj/c', value: 30 },
        { op: 'move', from: '/obj/c', path: '/moved' },
        { op: 'copy', from: '/list/0', path: '/copied' },
      ]);
      const result = applyPatch(doc, ops);
      expect(doc).to.deep.equal({ list: [{ a: 1 }, { b: 2 }], obj: { c: 3 } });
      expect(result).to.deep.equal({ list: [{ b: 2 }, { d: 4 }], obj: {}, moved: 30, copied: { b: 2 } });
    });

    it('shares the subtrees an operation does not touch', () => {
      const doc = { touched: { a: 1 }, untouched: { b: [1, 2] } };
      const result = applyPatch(doc, [{ op: 'replace', path: '/touched/a', value: 2 }]) as typeof doc;
      expect(result.untouched).to.equal(doc.untouched);
      expect(result.touched).to.not.equal(doc.touched);
    });
  });

  describe('parsePatch', () => {
    it('accepts every operation shape', () => {
      const raw = [
        { op: 'add', path: '/a', value: 1 },
        { op: 'remove', path: '/a' },
        { op: 'replace', path: '/a', value: null },
        { op: 'move', from: '/a', path: '/b' },
        { op: 'copy', from: '/a', path: '/b' },
        { op: 'test', path: '/a', value: [] },
      ];
      expect(parsePatch(raw)).to.deep.equal(raw);
    });

    it('rejects non-lists, unknown ops and missing value/from/path', () => {
      patchErrorOf(() => parsePatch({ op: 'add' }));
      patchErrorOf(() => parsePatch([{ op: 'merge', path: '/a' }]));
      patchErrorOf(() => parsePatch([{ op: 'add', path: '/a' }]));
      patchErrorOf(() => parsePatch([{ op: 'move', path: '/a' }]));
      patchErrorOf(() => parsePatch([{ op: 'remove' }]));
      patchErrorOf(() => parsePatch(['remove']));
      patchErrorOf(() => parsePatch([{ path: '/a' }]));
      patchErrorOf(() => parsePatch([{ op: 'add', path: 1, value: 1 }]));
    });

    it('names the operation that is wrong', () => {
      expect(patchErrorOf(() => parsePatch([{ op: 'remove', path: '/a' }, 7])).message).to.match(
        /operation 1/,
      );
      expect(patchErrorOf(() => parsePatch([{ op: 'remove', path: '/a' }, { path: '/a' }])).message).to.match(
        /operation 1 has no "op"/,
      );
      expect(patchErrorOf(() => parsePatch([{ op: 'merge', path: '/a' }])).message).to.match(/"merge"/);
      expect(patchErrorOf(() => parsePatch([{ op: 'copy', path: '/a' }])).message).to.match(
        /\(copy\).*"from"/,
      );
      expect(patchErrorOf(() => parsePatch([{ op: 'test', path: '/a' }])).message).to.match(
        /\(test\).*"value"/,
      );
    });
  });
});
