// `npm run bench`: every benchmark script in bench/, one after another, each in its own process; then the
// figures side by side with their baselines and targets, and the results table of bench/README.md
// rewritten with them (between the bench:results markers). BENCH_QUICK=1 gives a short version (about two
// minutes); it prints the table but rewrites the README only with BENCH_WRITE=1, so that a quick check
// does not replace the figures of a full run. Exits 1 when a script fails or a target is missed.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { QUICK, targetMet } from './support/results.js';

/** The known scripts in the order they run (cheap ones first); any other bench/*.js runs after them. */
const ORDER = ['load', 'turn', 'nlu', 'rest', 'a2a', 'claims', 'scale', 'soak'];
/** Scripts that sample the heap after a full collection. */
const EXPOSE_GC = new Set(['turn', 'soak']);
const README = 'bench/README.md';
const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

function scripts() {
  const present = readdirSync('bench')
    .filter((file) => file.endsWith('.js') && file !== 'all.js')
    .map((file) => file.slice(0, -3));
  return [
    ...ORDER.filter((name) => present.includes(name)),
    ...present.filter((name) => !ORDER.includes(name)).sort(),
  ];
}

function run(name, resultFile) {
  return new Promise((resolve) => {
    const started = Date.now();
    const args = [...(EXPOSE_GC.has(name) ? ['--expose-gc'] : []), `bench/${name}.js`];
    const child = spawn(process.execPath, args, {
      stdio: 'inherit',
      env: { ...process.env, BENCH_RESULT_FILE: resultFile },
    });
    child.once('exit', (code, signal) =>
      resolve({ code: code ?? signal, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

function machine() {
  const cores = cpus();
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout: the table says so
  }
  return {
    cpu: `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    system: `Linux ${release()}`,
    node: process.version,
    commit,
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
  };
}

const number = (value) => {
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
};
const summary = (value) =>
  !value
    ? '–'
    : value.runs > 1
      ? `${number(value.median)} (${number(value.min)}–${number(value.max)})`
      : number(value.median);
const target = ({ target: goal, unit }) => {
  if (!goal) return '–';
  const what = goal.of === 'ratio' ? 'ratio' : unit;
  return [
    goal.atLeast !== undefined ? `≥ ${number(goal.atLeast)} ${what}` : '',
    goal.atMost !== undefined ? `≤ ${number(goal.atMost)} ${what}` : '',
  ]
    .filter(Boolean)
    .join(', ');
};
const met = (measure) => ({ true: 'yes', false: '**no**', undefined: '' })[String(targetMet(measure))];

function table(results, facts, load, runs) {
  const lines = [
    START,
    `### ${QUICK ? 'Quick run (BENCH_QUICK=1)' : 'Full run'}: ${facts.date} UTC, commit ${facts.commit}`,
    '',
    `Machine: ${facts.cpu}, ${facts.memory}, ${facts.system}, Node ${facts.node}; load average ${load.before} before the run, ${load.after} after.`,
    'Values are medians with (min–max) over the runs; a ratio is each run divided by its baseline measured next to it in the same round.',
    '',
    '| measure | value | unit | baseline | ratio | target | met |',
    '| --- | ---: | --- | ---: | ---: | --- | --- |',
  ];
  for (const result of results) {
    for (const measure of result.measures) {
      lines.push(
        `| ${measure.label} | ${summary(measure.value)} | ${measure.unit} | ${measure.baseline ? `${summary(measure.baseline.value)} (${measure.baseline.label})` : '–'} | ${summary(measure.ratio)} | ${target(measure)} | ${met(measure)} |`,
      );
    }
  }
  lines.push('', 'How each script measured:', '');
  for (const result of results) lines.push(`- \`bench/${result.script}.js\`: ${result.method}.`);
  const failed = runs.filter((entry) => entry.code !== 0);
  if (failed.length > 0) {
    lines.push(
      '',
      `Exited non-zero (an error, or a missed target for the scripts that check their own): ${failed.map((entry) => `\`bench/${entry.name}.js\` (${entry.code})`).join(', ')}.`,
    );
  }
  lines.push(END);
  return lines.join('\n');
}

function rewriteReadme(block) {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  const next =
    start >= 0 && end > start
      ? `${text.slice(0, start)}${block}${text.slice(end + END.length)}`
      : `${text.trimEnd()}\n\n## Results of \`npm run bench\`\n\n${block}\n`;
  writeFileSync(README, next);
}

async function main() {
  if (!existsSync('dist/cli/serve.js')) {
    console.error('dist/ is missing: run `npm run build` first (`npm run bench` does).');
    process.exit(1);
  }
  const facts = machine();
  const before = loadavg()[0].toFixed(1);
  const folder = mkdtempSync(join(tmpdir(), 'parley-bench-all-'));
  const runs = [];
  const results = [];
  try {
    for (const name of scripts()) {
      console.log(`\n== bench/${name}.js${QUICK ? ' (quick)' : ''} ==`);
      const file = join(folder, `${name}.json`);
      const outcome = await run(name, file);
      runs.push({ name, ...outcome });
      if (existsSync(file)) results.push(JSON.parse(readFileSync(file, 'utf8')));
      console.log(`== bench/${name}.js: exit ${outcome.code} after ${outcome.seconds.toFixed(0)} s ==`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const block = table(results, facts, { before, after: loadavg()[0].toFixed(1) }, runs);
  console.log(`\n${block}\n`);
  const write = process.env.BENCH_WRITE ? process.env.BENCH_WRITE === '1' : !QUICK;
  if (write) {
    rewriteReadme(block);
    console.log(`${README} rewritten.`);
  }
  const measures = results.flatMap((result) => result.measures);
  const missed = measures.filter((measure) => targetMet(measure) === false);
  const judged = measures.filter((measure) => targetMet(measure) !== undefined);
  console.log(`${judged.length - missed.length} of ${judged.length} targets met.`);
  process.exitCode = missed.length > 0 || runs.some((entry) => entry.code !== 0) ? 1 : 0;
}

await main();
