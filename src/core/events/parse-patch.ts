/** Validates a JSON Patch document that came from outside (a `stack` event's `update` string). */
import type { JsonPatchOperation } from './patch-operation.js';
import { patchError } from './json-pointer.js';
import { hasOwn, isPlainObject } from './json-value.js';
import type { JsonObject } from './json-value.js';

const OPS_WITH_VALUE = new Set(['add', 'replace', 'test']);
const OPS_WITH_FROM = new Set(['move', 'copy']);

export function parsePatch(raw: unknown): JsonPatchOperation[] {
  if (!Array.isArray(raw)) throw patchError('a JSON patch must be an array of operations');
  return raw.map((item: unknown, index) => parseOperation(item, index));
}

/** Parses the JSON text of a patch (what a `stack` event's `update` holds). */
export function parsePatchText(text: string): JsonPatchOperation[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw patchError(
      `the patch is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return parsePatch(raw);
}

function parseOperation(item: unknown, index: number): JsonPatchOperation {
  if (!isPlainObject(item)) throw patchError(`operation ${index} is not an object`);
  const { op, path } = item;
  if (typeof op !== 'string') throw patchError(`operation ${index} has no "op"`);
  if (typeof path !== 'string') throw patchError(`operation ${index} has no string "path"`);
  if (OPS_WITH_VALUE.has(op)) return withValue(item, op, path, index);
  if (OPS_WITH_FROM.has(op)) return withFrom(item, op, path, index);
  if (op === 'remove') return { op, path };
  throw patchError(`operation ${index} has unknown op "${op}"`);
}

function withValue(item: JsonObject, op: string, path: string, index: number): JsonPatchOperation {
  if (!hasOwn(item, 'value')) throw patchError(`operation ${index} (${op}) has no "value"`);
  const value = item.value;
  return op === 'add'
    ? { op, path, value }
    : op === 'replace'
      ? { op, path, value }
      : { op: 'test', path, value };
}

function withFrom(item: JsonObject, op: string, path: string, index: number): JsonPatchOperation {
  const from = item.from;
  if (typeof from !== 'string') throw patchError(`operation ${index} (${op}) has no string "from"`);
  return op === 'move' ? { op, from, path } : { op: 'copy', from, path };
}
