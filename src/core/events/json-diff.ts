/**
 * A correct, not minimal, JSON Patch between two JSON documents. Objects are compared member by
 * member; arrays position by position while the elements are "the same entity" (by `identityKey`,
 * e.g. a stack frame's `frame_id`), after which the rest of the old array is removed from the end
 * and the rest of the new one added. Members whose value is `undefined` count as absent, as in JSON.
 */
import type { JsonPatchOperation } from './patch-operation.js';
import { childPointer } from './json-pointer.js';
import type { JsonObject } from './json-value.js';
import { hasOwn, isPlainObject, jsonEqual } from './json-value.js';

export interface DiffOptions {
  /** objects in arrays whose values under this key differ are replaced whole, not field by field */
  readonly identityKey?: string;
}

export function diffPatch(before: unknown, after: unknown, options: DiffOptions = {}): JsonPatchOperation[] {
  const operations: JsonPatchOperation[] = [];
  diffValue(before, after, '', operations, options);
  return operations;
}

function diffValue(
  before: unknown,
  after: unknown,
  path: string,
  out: JsonPatchOperation[],
  options: DiffOptions,
): void {
  if (before === after) return;
  if (Array.isArray(before) && Array.isArray(after)) return diffArray(before, after, path, out, options);
  if (isPlainObject(before) && isPlainObject(after)) return diffObject(before, after, path, out, options);
  if (!jsonEqual(before, after)) out.push({ op: 'replace', path, value: after });
}

function diffObject(
  before: JsonObject,
  after: JsonObject,
  path: string,
  out: JsonPatchOperation[],
  options: DiffOptions,
): void {
  // Object.keys order, without the arrays: this runs for every frame of every stack update
  for (const key in before) {
    if (isDefined(before, key) && !isDefined(after, key))
      out.push({ op: 'remove', path: childPointer(path, key) });
  }
  for (const key in after) {
    if (!isDefined(after, key)) continue;
    if (!isDefined(before, key)) out.push({ op: 'add', path: childPointer(path, key), value: after[key] });
    // equal members (most of a frame) need no pointer
    else if (before[key] !== after[key])
      diffValue(before[key], after[key], childPointer(path, key), out, options);
  }
}

function diffArray(
  before: readonly unknown[],
  after: readonly unknown[],
  path: string,
  out: JsonPatchOperation[],
  options: DiffOptions,
): void {
  const shared = Math.min(before.length, after.length);
  let kept = 0;
  while (kept < shared && sameEntity(before[kept], after[kept], options)) {
    if (before[kept] !== after[kept])
      diffValue(before[kept], after[kept], childPointer(path, kept), out, options);
    kept += 1;
  }
  for (let index = before.length - 1; index >= kept; index -= 1) {
    out.push({ op: 'remove', path: childPointer(path, index) });
  }
  for (let index = kept; index < after.length; index += 1) {
    out.push({ op: 'add', path: childPointer(path, index), value: after[index] });
  }
}

function sameEntity(before: unknown, after: unknown, options: DiffOptions): boolean {
  const key = options.identityKey;
  if (key === undefined || !isPlainObject(before) || !isPlainObject(after)) return true;
  if (!hasOwn(before, key) || !hasOwn(after, key)) return true;
  return jsonEqual(before[key], after[key]);
}

function isDefined(object: JsonObject, key: string): boolean {
  return hasOwn(object, key) && object[key] !== undefined;
}
