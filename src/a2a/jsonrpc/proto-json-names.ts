/**
 * ProtoJSON parsers accept a field by its JSON name or by its proto name: `history_length` is
 * `historyLength`, `context_id` is `contextId`. Every field of A2A's requests has a lowerCamelCase JSON
 * name, so request params are given those names before they are read (a ListTasks with `context_id`
 * then filters by context, as an SDK built on protobuf expects). The caller's own objects are left as
 * they are: `metadata` and the content of data parts (slot names such as `account_type`). A field
 * given both ways keeps the value of its JSON name.
 */
import { isRecord } from './params.js';

const PROTO_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
/** values that belong to the caller, not to the protocol */
const OPAQUE = new Set(['metadata', 'data']);
/** the deepest A2A request nests a few levels; deeper input is returned as it is */
const MAX_DEPTH = 8;

export function withJsonNames(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => withJsonNames(item, depth + 1));
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (!isRecord(value)) return value;
  let renamed: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const converted = OPAQUE.has(key) ? item : withJsonNames(item, depth + 1);
    const name = PROTO_NAME.test(key) ? jsonName(key) : key;
    if (converted === item && name === key && renamed === undefined) continue;
    renamed ??= copyUpTo(value, key);
    if (name !== key && Object.hasOwn(value, name)) continue; // the JSON name wins
    define(renamed, name, converted);
  }
  return renamed ?? value;
}

function jsonName(protoName: string): string {
  return protoName.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** The entries of `value` before `key`, as a fresh object (nothing was renamed before it). */
function copyUpTo(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    if (name === key) break;
    define(copy, name, item);
  }
  return copy;
}

/** An own property, also for a key such as `__proto__` (plain assignment would set the prototype). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
