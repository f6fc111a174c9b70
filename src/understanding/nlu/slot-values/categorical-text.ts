import { coerceSlotValue } from '../../../core/domain/slot-values.js';
import { editDistance, typoTolerance } from './edit-distance.js';
import { normalise, words } from './normalise.js';

/** Words that, just before a value, say the user does not want it ("not savings, checking"). */
const NEGATIONS = new Set(['not', 'no', 'never', 'dont', 'without', 'except', 'nor']);
const ARTICLES = new Set(['the', 'a', 'an', 'my', 'that', 'this']);

interface Candidate {
  readonly value: string;
  readonly start: number;
  readonly end: number;
  readonly distance: number;
}

/**
 * The declared value a message names, in this order: an exact or case-insensitive match; the same words
 * ignoring punctuation ("Premium-Plus!"); a value said as whole words inside the message and not negated
 * ("the savings one"), the longest winning when one contains another; a near match within typo
 * tolerance ("savngs"). Undefined when no value, or more than one, fits.
 */
export function categoricalFromText(values: readonly string[], text: string): string | undefined {
  const coerced = coerceSlotValue({ type: 'categorical', values }, text.trim());
  if (coerced.ok && typeof coerced.value === 'string') return coerced.value;
  const message = normalise(text);
  if (message === '') return undefined;
  const same = values.filter((value) => normalise(value) === message);
  if (same.length > 0) return unique(same);
  const tokens = words(text);
  return unique(best(mentions(values, tokens, 0))) ?? unique(best(mentions(values, tokens, undefined)));
}

/** Where each value occurs as a run of words: exactly (tolerance 0) or within its typo tolerance. */
function mentions(
  values: readonly string[],
  tokens: readonly string[],
  tolerance: number | undefined,
): Candidate[] {
  const found: Candidate[] = [];
  for (const value of values) {
    const target = normalise(value);
    const size = target === '' ? 0 : target.split(' ').length;
    const allowed = tolerance ?? typoTolerance(target.length);
    for (let start = 0; size > 0 && start + size <= tokens.length; start++) {
      if (negated(tokens, start)) continue;
      const distance = editDistance(tokens.slice(start, start + size).join(' '), target);
      if (distance <= allowed) found.push({ value, start, end: start + size, distance });
    }
  }
  return found;
}

/** "not savings", "not the savings one" */
function negated(tokens: readonly string[], start: number): boolean {
  const before = tokens[start - 1] ?? '';
  return NEGATIONS.has(before) || (ARTICLES.has(before) && NEGATIONS.has(tokens[start - 2] ?? ''));
}

/** The closest candidates, without those lying inside a longer candidate. */
function best(candidates: readonly Candidate[]): string[] {
  const closest = Math.min(...candidates.map((candidate) => candidate.distance));
  const near = candidates.filter((candidate) => candidate.distance === closest);
  const outer = near.filter(
    (a) =>
      !near.some((b) => b !== a && b.start <= a.start && a.end <= b.end && b.end - b.start > a.end - a.start),
  );
  return outer.map((candidate) => candidate.value);
}

function unique(values: readonly string[]): string | undefined {
  const distinct = new Set(values);
  return distinct.size === 1 ? [...distinct][0] : undefined;
}
