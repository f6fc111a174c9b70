/**
 * Log lines carry what callers sent (ids, texts, error messages quoting them): bounded here, so a
 * 2 MB contextId or message costs a log line of a few kB, not 2 MB per line it appears in.
 */

/** the longest string kept whole in a log field */
export const MAX_LOG_STRING = 1_000;
/** the most items of an array (or keys of an object) kept in a log field */
const MAX_LOG_ITEMS = 50;
/** deeper values are summarised */
const MAX_LOG_DEPTH = 4;

/** A string cut at the cap, saying how long it was. */
export function boundedLogString(value: string): string {
  if (value.length <= MAX_LOG_STRING) return value;
  const code = value.charCodeAt(MAX_LOG_STRING - 1);
  // never half a surrogate pair: it would be written as U+FFFD
  const end = code >= 0xd800 && code <= 0xdbff ? MAX_LOG_STRING - 1 : MAX_LOG_STRING;
  return `${value.slice(0, end)}… (${value.length} characters)`;
}

/** A copy of `value` with long strings cut, long arrays and objects shortened, deep nesting summarised. */
export function boundedLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return boundedLogString(value);
  if (typeof value !== 'object' || value === null) return value;
  // pino's error serializer's shape, with the message and stack bounded like any string
  if (value instanceof Error)
    return {
      type: value.name,
      message: boundedLogString(value.message),
      stack: boundedLogString(value.stack ?? ''),
    };
  if (depth >= MAX_LOG_DEPTH) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_LOG_ITEMS).map((item) => boundedLogValue(item, depth + 1));
    return value.length > MAX_LOG_ITEMS ? [...kept, `… (${value.length} items)`] : kept;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const kept = entries
    .slice(0, MAX_LOG_ITEMS)
    .map(([key, item]) => [boundedLogString(key), boundedLogValue(item, depth + 1)]);
  if (entries.length > MAX_LOG_ITEMS) kept.push(['…', `${entries.length} keys`]);
  return Object.fromEntries(kept);
}
