#!/usr/bin/env node
// Runs Stryker (issue 12) on one scope of stryker.config.mjs, or on every scope in turn.
//
//   node scripts/mutation.mjs core|edge|all [--mutate <glob>]... [--concurrency <n>] [--typecheck] [--static]
//     [--no-incremental]
//
// Stryker is started through its API rather than its CLI: the CLI of Stryker 10 refuses Node 20, which the
// project supports (engines >= 20.19), while the rest of Stryker runs on it. The package's index re-exports
// the CLI, whose version guard throws on import, so the Stryker class is loaded from its own module.
// `--mutate` narrows a scope to some files (e.g. `--mutate src/core/stack/operations.ts`) for a quick run.
// `--typecheck` adds Stryker's TypeScript checker, which drops mutants that do not compile instead of
// running them; on this 2-core machine it costs about 1 s a mutant (1 min 43 s instead of 11 s for the 109
// mutants of src/core/stack/operations.ts), so the full scopes run without it to stay under 30 minutes.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import './mutation-mocha12.mjs';
import base, { scopes } from '../stryker.config.mjs';

const coreDir = dirname(fileURLToPath(import.meta.resolve('@stryker-mutator/core/package.json')));
const strykerModule = (path) => import(pathToFileURL(join(coreDir, 'dist/src', path)).href);
const { Stryker } = await strykerModule('stryker.js');
const { MutantTestPlanner } = await strykerModule('mutants/mutant-test-planner.js');

// "Hybrid" mutants run both while a module loads (often a test's describe body building its fixture) and
// inside tests. With ignoreStatic on, Stryker runs only their covering tests but still restarts the test
// process for each (native ESM cannot be reloaded): 3 to 7 s a mutant on this machine, about 400 of the
// 2,235 mutants of src/core/commands + stack + flows/conditions, which alone took the run past 30 minutes.
// Here they are switched on at run time like any other mutant instead: the load-time part of the change is
// not active, so a kill is a real kill and the score is a lower bound. `--static` turns this off.
function hotSwapHybridMutants() {
  const plan = MutantTestPlanner.prototype.createMutantRunPlan;
  MutantTestPlanner.prototype.createMutantRunPlan = function (mutant, details) {
    const hybrid = this.options.ignoreStatic && details.isStatic && details.testFilter?.length > 0;
    return plan.call(this, mutant, hybrid ? { ...details, isStatic: false } : details);
  };
}

function parseArgs(argv) {
  const [scope = 'all', ...rest] = argv;
  const mutate = [];
  let incremental = true;
  let typeCheck = false;
  let ignoreStatic = true;
  let concurrency;
  for (let i = 0; i < rest.length; i += 1) {
    if (rest[i] === '--mutate' && rest[i + 1] !== undefined) mutate.push(rest[(i += 1)]);
    else if (rest[i] === '--concurrency' && Number(rest[i + 1]) >= 1) concurrency = Number(rest[(i += 1)]);
    else if (rest[i] === '--no-incremental') incremental = false;
    else if (rest[i] === '--typecheck') typeCheck = true;
    else if (rest[i] === '--static') ignoreStatic = false;
    else throw new Error(`unknown argument '${rest[i]}'`);
  }
  if (scope !== 'all' && !(scope in scopes)) {
    throw new Error(`unknown scope '${scope}': use ${Object.keys(scopes).join(', ')} or all`);
  }
  return {
    names: scope === 'all' ? Object.keys(scopes) : [scope],
    mutate,
    incremental,
    typeCheck,
    ignoreStatic,
    concurrency,
  };
}

function scopeOptions(name, { mutate, incremental, typeCheck, ignoreStatic, concurrency }) {
  const scope = scopes[name];
  // Stryker deep-merges these over stryker.config.mjs
  return {
    configFile: 'stryker.config.mjs',
    mutate: mutate.length > 0 ? mutate : scope.mutate,
    mochaOptions: { ...base.mochaOptions, spec: scope.spec },
    incremental,
    ignoreStatic,
    ...((concurrency ?? scope.concurrency) ? { concurrency: concurrency ?? scope.concurrency } : {}),
    ...(typeCheck ? { checkers: ['typescript'], tsconfigFile: scope.tsconfig } : {}),
    incrementalFile: `reports/mutation/stryker-incremental-${name}.json`,
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
  };
}

async function main() {
  const { names, ...options } = parseArgs(process.argv.slice(2));
  if (options.ignoreStatic) hotSwapHybridMutants();
  for (const name of names) {
    const started = Date.now();
    process.stdout.write(`\n== mutation scope '${name}' ==\n`);
    await new Stryker(scopeOptions(name, options)).runMutationTest();
    const minutes = ((Date.now() - started) / 60000).toFixed(1);
    process.stdout.write(
      `== scope '${name}' done in ${minutes} min; report in reports/mutation/${name}.html ==\n`,
    );
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
