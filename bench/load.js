// Cold load + validate benchmark: runs `parley data validate` as a whole new process per project and
// reports wall-clock times. A bare `node` start is measured in the same run as the baseline, so the
// figures can be read as "node startup + Parley" on a noisy shared machine.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { recordResults, setting, summarise, targetMet } from './support/results.js';

const RUNS = setting('BENCH_RUNS', 7, 3);
const TARGET_MS = 300;
const CORPUS = process.env.PARLEY_CORPUS ?? '../shared/corpus';
const PROJECTS = [
  ['bundled assistant', '.'],
  ['rasa-quickstart', `${CORPUS}/rasa-quickstart`],
  ['starterpack-retail-banking-en', `${CORPUS}/starterpack-retail-banking-en`],
  ['starterpack-telco-en', `${CORPUS}/starterpack-telco-en`],
  ['starterpack-insurance-en', `${CORPUS}/starterpack-insurance-en`],
];

if (!existsSync('dist/cli/main.js')) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}

function timeRun(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  return { elapsed, status: result.status, stdout: result.stdout };
}

const rows = [];
const baseline = summarise(Array.from({ length: RUNS }, () => timeRun(['-e', '']).elapsed));
rows.push({ project: 'node -e "" (baseline)', ...baseline, errors: '-', warnings: '-' });
let failed = false;
const present = PROJECTS.filter(([name, dir]) => {
  if (existsSync(dir)) return true;
  console.error(`${name}: ${dir} is missing (set PARLEY_CORPUS to the corpus folder); its row is skipped.`);
  return false;
});
const measures = [];
for (const [name, dir] of present) {
  const times = [];
  let report;
  for (let run = 0; run < RUNS; run += 1) {
    const result = timeRun(['bin/parley.js', 'data', 'validate', '-p', dir, '--format', 'json']);
    times.push(result.elapsed);
    report = JSON.parse(result.stdout);
    if (result.status !== 0) failed = true;
  }
  const stats = summarise(times);
  rows.push({ project: name, ...stats, errors: report.errors, warnings: report.warnings });
  measures.push({
    id: `load.${name.replace(/\s+/g, '-')}`,
    label: `cold \`parley data validate\`: ${name}`,
    unit: 'ms',
    value: stats,
    baseline: { label: 'node -e ""', value: baseline },
    target: { of: 'value', atMost: TARGET_MS },
  });
}
recordResults('load', {
  method: `a new process per run, ${RUNS} runs per project, next to a bare \`node -e ""\` start`,
  measures,
});
if (measures.some((measure) => targetMet(measure) === false)) failed = true;

const fmt = (ms) => (typeof ms === 'number' ? ms.toFixed(0).padStart(6) : String(ms).padStart(6));
console.log(
  `cold load + validate, whole process, ${RUNS} runs each (ms); target: median under ${TARGET_MS} ms`,
);
console.log('project'.padEnd(34) + '   min median    max errors warnings');
for (const row of rows) {
  console.log(
    row.project.padEnd(34) +
      fmt(row.min) +
      ' ' +
      fmt(row.median) +
      ' ' +
      fmt(row.max) +
      ' ' +
      fmt(row.errors) +
      '   ' +
      fmt(row.warnings),
  );
}
process.exitCode = failed ? 1 : 0;
