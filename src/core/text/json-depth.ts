/**
 * JSON.parse reads any nesting, but JSON.stringify, structuredClone and every recursive walk after
 * it overflow the stack a few thousand levels down: a 1 MB body of `[[[[…` would fail a turn with a
 * 500. No message, metadata or event needs more than a few levels, so every edge refuses deeper
 * bodies at the door.
 */
export const MAX_BODY_DEPTH = 64;

/** true when `value` nests objects/arrays more than `limit` levels deep (iterative: never overflows) */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}
