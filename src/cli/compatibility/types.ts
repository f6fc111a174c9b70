/**
 * How Parley treats one Rasa feature:
 * - supported: runs as in Rasa;
 * - replaced: runs, by a different mechanism named in the note (a warning says so where it matters);
 * - warned: read and accepted, not run; `validate` and start-up say so with a warning;
 * - refused: an error names it (as Rasa does for the legacy step kinds, or an unknown CLI flag).
 */
export type Support = 'supported' | 'replaced' | 'warned' | 'refused';

export interface FeatureRow {
  readonly feature: string;
  readonly support: Support;
  readonly note: string;
}

export interface Section {
  readonly title: string;
  readonly intro: string;
  readonly rows: readonly FeatureRow[];
}

export function row(feature: string, support: Support, note = ''): FeatureRow {
  return { feature, support, note };
}
