// Offline intent classification on BANKING77 (PolyAI, CC BY 4.0; see ../shared/benchmarks/banking77/NOTICE.md):
// the full train split and k-shot draws (k examples per intent, mean of seeded draws), scored on all 3,080
// test rows, side by side: accuracy, macro-F1, p50/p99 latency per message, training seconds, model size.
// The fallback threshold is off, so accuracy is that of the best intent, as in the dataset's paper.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCsvExamples, trainAndEvaluate } from '../dist/understanding/nlu/classifier/index.js';
import { createRandom } from '../dist/understanding/nlu/classifier/random.js';
import { recordResults, setting } from './support/results.js';

const DATA = process.env.PARLEY_BANKING77 ?? '../shared/benchmarks/banking77';
const SHOTS = setting('BENCH_SHOTS', 10);
const DRAWS = setting('BENCH_DRAWS', 3, 1);
const TARGETS = { full: 0.92, shots: 0.78, p99Ms: 5, trainingSeconds: 60, modelBytes: 20e6 };

if (!existsSync(join(DATA, 'train.csv'))) {
  console.error(`BANKING77 is not at ${DATA} (set PARLEY_BANKING77 to its folder): skipped.`);
  process.exit(0);
}

const read = (file) => readCsvExamples(readFileSync(join(DATA, file), 'utf8'), file);
const train = read('train.csv');
const test = read('test.csv');

/** k examples of every intent, from a seeded shuffle of each intent's examples. */
function draw(examples, shots, seed) {
  const random = createRandom(seed);
  const byIntent = new Map();
  for (const example of examples)
    byIntent.set(example.intent, [...(byIntent.get(example.intent) ?? []), example]);
  return [...byIntent.values()].flatMap((group) => {
    const order = [...group];
    for (let at = order.length - 1; at > 0; at -= 1) {
      const other = random.int(at + 1);
      [order[at], order[other]] = [order[other], order[at]];
    }
    return order.slice(0, shots);
  });
}

const run = (examples) => trainAndEvaluate(examples, test, { fallback: undefined });
const full = run(train);
const draws = Array.from({ length: DRAWS }, (_, at) => run(draw(train, SHOTS, at + 1)));

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const spread = (values) => Math.sqrt(mean(values.map((value) => (value - mean(values)) ** 2)));
const pct = (value) => (100 * value).toFixed(2);
const row = (name, reports, note = '') => {
  const accuracy = reports.map((report) => report.accuracy);
  return [
    name.padEnd(22),
    `${pct(mean(accuracy))}${reports.length > 1 ? ` ± ${pct(spread(accuracy))}` : ''}`.padEnd(15),
    pct(mean(reports.map((report) => report.macroF1))).padEnd(9),
    mean(reports.map((report) => report.latencyMs.p50))
      .toFixed(3)
      .padEnd(8),
    Math.max(...reports.map((report) => report.latencyMs.p99))
      .toFixed(3)
      .padEnd(8),
    mean(reports.map((report) => report.trainingSeconds))
      .toFixed(1)
      .padEnd(8),
    (Math.max(...reports.map((report) => report.modelBytes)) / 1e6).toFixed(1).padEnd(8),
    note,
  ].join(' ');
};

console.log(`BANKING77: ${train.length} train / ${test.length} test examples, ${full.intents} intents`);
console.log(
  [
    'setting'.padEnd(22),
    'accuracy %'.padEnd(15),
    'macro-F1'.padEnd(9),
    'p50 ms'.padEnd(8),
    'p99 ms'.padEnd(8),
    'train s'.padEnd(8),
    'size MB'.padEnd(8),
  ].join(' '),
);
console.log(row('full', [full]));
console.log(
  row(
    `${SHOTS}-shot (${DRAWS} draws)`,
    draws,
    `draws: ${draws.map((report) => pct(report.accuracy)).join(', ')}`,
  ),
);

const misses = [
  full.accuracy < TARGETS.full && `full accuracy ${pct(full.accuracy)} < ${pct(TARGETS.full)}`,
  SHOTS === 10 &&
    mean(draws.map((r) => r.accuracy)) < TARGETS.shots &&
    `10-shot accuracy < ${pct(TARGETS.shots)}`,
  [full, ...draws].some((r) => r.latencyMs.p99 > TARGETS.p99Ms) && `p99 latency > ${TARGETS.p99Ms} ms`,
  full.trainingSeconds > TARGETS.trainingSeconds &&
    `training ${full.trainingSeconds.toFixed(1)} s > ${TARGETS.trainingSeconds} s`,
  full.modelBytes > TARGETS.modelBytes && `model ${full.modelBytes} bytes > ${TARGETS.modelBytes}`,
].filter(Boolean);
const one = (value) => ({ median: value, min: value, max: value, runs: 1 });
const spreadOf = (values) => ({
  median: mean(values),
  min: Math.min(...values),
  max: Math.max(...values),
  runs: values.length,
});
recordResults('nlu', {
  method: `BANKING77 (${train.length} train, ${test.length} test rows), fallback threshold off; ${SHOTS}-shot as the mean of ${DRAWS} seeded draws`,
  measures: [
    {
      id: 'nlu.full-accuracy',
      label: 'NLU: BANKING77 accuracy, full train split',
      unit: '%',
      value: one(100 * full.accuracy),
      target: { of: 'value', atLeast: 100 * TARGETS.full },
    },
    {
      id: 'nlu.shot-accuracy',
      label: `NLU: BANKING77 accuracy, ${SHOTS}-shot (mean of draws)`,
      unit: '%',
      value: spreadOf(draws.map((report) => 100 * report.accuracy)),
      ...(SHOTS === 10 ? { target: { of: 'value', atLeast: 100 * TARGETS.shots } } : {}),
    },
    {
      id: 'nlu.p99',
      label: 'NLU: p99 latency per message',
      unit: 'ms',
      value: one(Math.max(...[full, ...draws].map((report) => report.latencyMs.p99))),
      target: { of: 'value', atMost: TARGETS.p99Ms },
    },
    {
      id: 'nlu.training',
      label: 'NLU: training time, full split',
      unit: 's',
      value: one(full.trainingSeconds),
      target: { of: 'value', atMost: TARGETS.trainingSeconds },
    },
    {
      id: 'nlu.model-size',
      label: 'NLU: model size',
      unit: 'MB',
      value: one(full.modelBytes / 1e6),
      target: { of: 'value', atMost: TARGETS.modelBytes / 1e6 },
    },
  ],
});
console.log(misses.length === 0 ? 'All targets met (spec/nlu.md §4).' : `Missed: ${misses.join('; ')}`);
if (misses.length > 0) process.exitCode = 1;
