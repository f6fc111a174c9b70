/**
 * Log lines carry what callers sent (ids, texts, error messages quoting them): bounded here, so a
 * 2 MB contextId or message costs a log line of a few kB, not 2 MB per line it appears in.
 */

/** the longest string kept whole in a log field */
export const MAX_LOG_STRING = 1_000;
/** the most items of an array kept in a log field */
const MAX_LOG_ITEMS = 50;
/** deeper values are summarised */
const MAX_LOG_DEPTH = 4;

/** A string cut at the cap, saying how long it was. */
export function boundedLogString(value: string): string {
  if (value.length <= MAX_LOG_STRING) return value;
  return `${value.slice(0, MAX_LOG_STRING)}… (${value.length} characters)`;
}

/** A copy of `value` with long strings cut, long arrays shortened and deep nesting summarised. */
export function boundedLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return boundedLogString(value);
  if (typeof value !== 'object' || value === null || value instanceof Error) return value;
  if (depth >= MAX_LOG_DEPTH) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_LOG_ITEMS).map((item) => boundedLogValue(item, depth + 1));
    return value.length > MAX_LOG_ITEMS ? [...kept, `… (${value.length} items)`] : kept;
  }
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [
      key,
      boundedLogValue(item, depth + 1),
    ]),
  );
}
