/**
 * RFC 6902 JSON Patch. `applyPatch` never mutates its input: it copies the containers on the path of
 * each operation and shares every other subtree (and the operations' values) with the result, so
 * treat documents as immutable. Every failure is an `AppError` with code `JSON_PATCH_INVALID`.
 */
import { AppError, assertNever } from '../errors.js';
import { arrayIndex, parsePointer, patchError } from './json-pointer.js';
import type { JsonObject } from './json-value.js';
import { hasOwn, isPlainObject, jsonEqual, withKey, withoutKey } from './json-value.js';
import type { JsonPatchOperation } from './patch-operation.js';

export { diffPatch } from './json-diff.js';
export type { DiffOptions } from './json-diff.js';
export type { JsonPatchOperation } from './patch-operation.js';

export function applyPatch(document: unknown, operations: readonly JsonPatchOperation[]): unknown {
  return operations.reduce((current: unknown, operation, index) => {
    try {
      return applyOperation(current, operation);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'JSON_PATCH_INVALID') throw error;
      throw new AppError({
        code: 'JSON_PATCH_INVALID',
        message: `operation ${index} (${operation.op} "${operation.path}"): ${error.message}`,
        details: { index, operation },
        cause: error,
      });
    }
  }, document);
}

function applyOperation(document: unknown, operation: JsonPatchOperation): unknown {
  switch (operation.op) {
    case 'add':
      return add(document, parsePointer(operation.path), operation.value);
    case 'remove':
      return remove(document, parsePointer(operation.path));
    case 'replace':
      return replace(document, parsePointer(operation.path), operation.value);
    case 'move':
      return move(document, operation.from, operation.path);
    case 'copy':
      return add(document, parsePointer(operation.path), valueAt(document, parsePointer(operation.from)));
    case 'test':
      if (!jsonEqual(valueAt(document, parsePointer(operation.path)), operation.value)) {
        throw patchError('test failed: the value differs');
      }
      return document;
    default:
      return assertNever(operation, 'JSON patch operation');
  }
}

function add(document: unknown, tokens: readonly string[], value: unknown): unknown {
  if (tokens.length === 0) return value;
  return editParent(document, tokens, (parent, token) => {
    if (Array.isArray(parent)) {
      const index = arrayIndex(token, parent.length, true);
      return [...parent.slice(0, index), value, ...parent.slice(index)];
    }
    return withKey(asObject(parent, token), token, value);
  });
}

function remove(document: unknown, tokens: readonly string[]): unknown {
  if (tokens.length === 0) throw patchError('cannot remove the whole document');
  return editParent(document, tokens, (parent, token) => {
    if (Array.isArray(parent)) {
      const index = arrayIndex(token, parent.length, false);
      return [...parent.slice(0, index), ...parent.slice(index + 1)];
    }
    return withoutKey(existingMember(parent, token), token);
  });
}

function replace(document: unknown, tokens: readonly string[], value: unknown): unknown {
  if (tokens.length === 0) return value;
  return editParent(document, tokens, (parent, token) => {
    if (Array.isArray(parent)) {
      const index = arrayIndex(token, parent.length, false);
      return parent.map((item: unknown, position) => (position === index ? value : item));
    }
    return withKey(existingMember(parent, token), token, value);
  });
}

function move(document: unknown, from: string, path: string): unknown {
  if (from === path) {
    valueAt(document, parsePointer(from));
    return document;
  }
  if (path.startsWith(`${from}/`)) throw patchError(`cannot move "${from}" into its own child "${path}"`);
  const fromTokens = parsePointer(from);
  const value = valueAt(document, fromTokens);
  return add(remove(document, fromTokens), parsePointer(path), value);
}

/** The value a pointer names; throws when any part of the path does not exist. */
export function valueAt(document: unknown, tokens: readonly string[]): unknown {
  return tokens.reduce((node: unknown, token) => child(node, token), document);
}

function child(node: unknown, token: string): unknown {
  if (Array.isArray(node)) return node[arrayIndex(token, node.length, false)];
  return existingMember(node, token)[token];
}

/** Rebuilds the path down to the parent of the last token, letting `edit` produce the new parent. */
function editParent(
  document: unknown,
  tokens: readonly string[],
  edit: (parent: unknown, token: string) => unknown,
): unknown {
  const rebuild = (node: unknown, depth: number): unknown => {
    const token = tokens[depth] as string;
    if (depth === tokens.length - 1) return edit(node, token);
    const updated = rebuild(child(node, token), depth + 1);
    if (Array.isArray(node)) {
      const index = arrayIndex(token, node.length, false);
      return node.map((item: unknown, position) => (position === index ? updated : item));
    }
    return withKey(asObject(node, token), token, updated);
  };
  return rebuild(document, 0);
}

function asObject(node: unknown, token: string): JsonObject {
  if (!isPlainObject(node)) throw patchError(`cannot address "${token}" inside a ${describe(node)}`);
  return node;
}

function existingMember(node: unknown, token: string): JsonObject {
  const object = asObject(node, token);
  if (!hasOwn(object, token)) throw patchError(`member "${token}" does not exist`);
  return object;
}

function describe(node: unknown): string {
  return node === null ? 'null' : typeof node;
}
