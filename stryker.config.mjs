// Mutation testing (issue 12). Run it with `npm run test:mutation` (every scope) or a per-scope script
// (`npm run test:mutation:core`, `test:mutation:edge`); see test/README.md for the scores and how to read them.
// scripts/mutation.mjs starts Stryker through its API with one of the scopes below laid over this base.

/** Lets Stryker's mocha runner find mocha 12's `.cjs` CLI helpers (see the file). */
const MOCHA12_SHIM = new URL('./scripts/mutation-mocha12.mjs', import.meta.url).href;

/** The tests that cover a scope: Stryker runs only these, and per test only those that reach the mutant. */
const CORE_TESTS = [
  'test/core/**/*.test.ts',
  // the agent's turns run the commands and the executor end to end; the LLM command DSL parses commands;
  // project loading validates domains, flows and conditions
  'test/runtime/**/*.test.ts',
  'test/understanding/llm/**/*.test.ts',
  'test/project/**/*.test.ts',
];

/** Test files the runs leave out. */
const IGNORED_TESTS = [
  // reads src/core's text for forbidden imports; Stryker's instrumented copy is not the source it guards
  'test/core/purity.test.ts',
  // replays the third-party corpus, which only some clones have
  'test/project/corpus.test.ts',
  // runs the built CLI in dist/, which Stryker does not mutate
  'test/project/broken-projects.test.ts',
  // a ten-second stress test (connections killed under load): every SQL store mutant would run it, and
  // the contract and sql-failures.test.ts cover the same code in a fraction of the time
  'test/stores/postgres-under-load.test.ts',
];

const EDGE_TESTS = [
  // the handler's semantics without a server: first, so that most of its mutants fail a fast test
  'test/a2a/semantic-handler*.test.ts',
  'test/a2a/dialogue-outcome.test.ts',
  'test/a2a/digression-outcome.test.ts',
  'test/a2a/rpc.test.ts',
  'test/a2a/rpc-outcomes.test.ts',
  'test/understanding/nlu/*.test.ts',
  'test/stores/sql-*.test.ts',
  'test/stores/sqlite-tracker-store.test.ts',
  'test/stores/postgres-tracker-store.test.ts',
];

/** What each scope mutates and which tests it gives mocha. `all` is every scope in one run. */
export const scopes = {
  core: {
    mutate: [
      'src/core/**/*.ts',
      // the catalogue of diagnostic codes and their messages: string data, guarded by the generated-docs test
      '!src/core/diagnostic-codes.ts',
    ],
    spec: CORE_TESTS,
    // the type checker compiles only what the mutants can break: src/core imports nothing outside itself
    tsconfig: 'tsconfig.mutation-core.json',
  },
  edge: {
    mutate: [
      'src/a2a/dialogue-outcome.ts',
      'src/a2a/semantic-handler.ts',
      'src/understanding/nlu/nlu-command-generator.ts',
      'src/stores/sql/sql-tracker-store.ts',
      'src/stores/sql/sqlite-statements.ts',
      'src/stores/sql/postgres-append.ts',
    ],
    spec: EDGE_TESTS,
    tsconfig: 'tsconfig.mutation-edge.json',
  },
};

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'mocha',
  // the tests are TypeScript run through tsx, as in .mocharc.json (`import: ["tsx"]`)
  testRunnerNodeArgs: ['--import', MOCHA12_SHIM, '--import', 'tsx'],
  checkerNodeArgs: ['--import', MOCHA12_SHIM],
  mochaOptions: {
    config: '.mocharc.json',
    spec: CORE_TESTS,
    ignore: IGNORED_TESTS,
  },
  mutate: scopes.core.mutate,
  plugins: ['@stryker-mutator/*', './scripts/mutation-ignore-logs.mjs'],
  // mutants in the arguments of log calls are Ignored (see the file)
  ignorers: ['log-calls'],
  // the TypeScript checker is opt-in (`--typecheck` of scripts/mutation.mjs): see the cost there
  checkers: [],
  tsconfigFile: scopes.core.tsconfig,
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  // Static mutants change code that runs when a module loads (module-level constants and tables). Under
  // native ESM each needs a fresh test process: in src/core they are 24 % of the mutants and Stryker puts
  // them at 87 % of the run time, past the 30-minute budget. They are reported as Ignored and left out of
  // the score; `--static` of scripts/mutation.mjs tests them too.
  ignoreStatic: true,
  // the machine has two shared cores
  concurrency: 2,
  timeoutMS: 10000,
  // reports/ is gitignored: the incremental file names every test and mutant of the last local run, so it
  // would churn on every branch; the first run on a clone is a full run, later ones retest only what changed
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental-core.json',
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/core.html' },
  jsonReporter: { fileName: 'reports/mutation/core.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: true },
  thresholds: { high: 85, low: 75 },
  ignorePatterns: [
    'dist',
    'dist-typecheck',
    'coverage',
    'models',
    'results',
    '.parley',
    'reports',
    '*.db',
    '*.sqlite',
  ],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
