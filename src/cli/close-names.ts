import { editDistance } from '../understanding/nlu/slot-values/edit-distance.js';

const MAX_LISTED = 5;

/**
 * The known names a mistyped one may have meant, nearest first: those within a few edits (about a
 * third of its length) or that contain it or that it contains, at most five.
 */
export function closeNames(wanted: string, known: readonly string[]): string[] {
  const lower = wanted.toLowerCase();
  const limit = Math.max(2, Math.floor(lower.length / 3));
  return known
    .map((name) => ({ name, distance: editDistance(lower, name.toLowerCase()) }))
    .filter(
      ({ name, distance }) =>
        distance <= limit ||
        (lower.length >= 3 && (name.toLowerCase().includes(lower) || lower.includes(name.toLowerCase()))),
    )
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, MAX_LISTED)
    .map(({ name }) => name);
}
