// What every benchmark script shares: its settings (full or BENCH_QUICK), medians with min and max, and
// the results it hands to `npm run bench` (bench/all.js), which prints them side by side and rewrites the
// table in bench/README.md.
import { writeFileSync } from 'node:fs';

export const QUICK = process.env.BENCH_QUICK === '1';

/** A numeric setting: the environment variable when set, else the full or the quick default. */
export function setting(name, full, quick = full) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return QUICK ? quick : full;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a non-negative number, not '${raw}'`);
  return value;
}

/** Median, min and max of some runs (the median of an even count is the upper middle value). */
export function summarise(values) {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)],
    min: sorted[0],
    max: sorted[sorted.length - 1],
    runs: sorted.length,
  };
}

/**
 * Hands a script's results to bench/all.js (when it runs the script) through BENCH_RESULT_FILE.
 * `measures`: { id, label, unit, value: summary, baseline?: { label, value: summary },
 * ratio?: summary (each run's value over the baseline of the same run), target?: { of: 'value' | 'ratio',
 * atLeast?: number, atMost?: number } }. `method`: one line on how the script measured.
 */
export function recordResults(script, { method, measures, notes = [] }) {
  const file = process.env.BENCH_RESULT_FILE;
  if (!file) return;
  writeFileSync(file, `${JSON.stringify({ script, method, measures, notes }, null, 2)}\n`);
}

/** Whether a measure meets its target, judged on the median; undefined when it has none. */
export function targetMet(measure) {
  const { target } = measure;
  if (!target) return undefined;
  const summary = target.of === 'ratio' ? measure.ratio : measure.value;
  if (!summary) return false;
  if (target.atLeast !== undefined && summary.median < target.atLeast) return false;
  if (target.atMost !== undefined && summary.median > target.atMost) return false;
  return true;
}
