// Precompiles the JSON Schemas of src/project/schemas into standalone ajv validators (CommonJS, loaded
// synchronously with require). Compiling them at every start costs ~250 ms; the CLI must start fast.
// Runs after tsc during `npm run build`; without the generated file the loader compiles at run time.
import { rmSync, writeFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { transformSync } from 'esbuild';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { AJV_OPTIONS, FAST_AJV_OPTIONS, SCHEMAS } from '../dist/project/schemas/index.js';
import { codeCachePath, runCommonJs } from '../dist/project/schemas/cached-script.js';

const FAST = 'dist/project/schemas/compiled-fast-validators.cjs';
const VERBOSE = 'dist/project/schemas/compiled-validators.cjs';

function compile(options, target) {
  // a code cache is made for one source: the old one goes before the source changes
  rmSync(codeCachePath(target), { force: true });
  const ajv = new Ajv({ ...options, code: { source: true, esm: false } });
  const refs = {};
  for (const [kind, schema] of Object.entries(SCHEMAS)) {
    ajv.addSchema(schema, kind);
    refs[kind] = kind;
  }
  // minified: a cold start parses a quarter less code (about 8 ms of `validate` on this machine)
  const { code } = transformSync(standaloneCode(ajv, refs), {
    minify: true,
    format: 'cjs',
    platform: 'node',
  });
  writeFileSync(target, code);
}

// A small yes/no validator for the common case of a valid file, and the verbose all-errors one that
// explains a failure, loaded only when some file fails.
compile(FAST_AJV_OPTIONS, FAST);
compile(AJV_OPTIONS, VERBOSE);

// V8 code caches of both files (src/project/schemas/cached-script.ts): V8 compiles a function when it
// first runs and caches what has been compiled, so the validators first check the files of the bundled
// assistant and its e2e tests (whatever of them is there: the cache only saves compile time).
const { loadProject } = await import('../dist/project/load-project.js');
const { project } = loadProject({ project: '.' });
const { raw } = project;
const samples = [
  ['config', raw.config],
  ['endpoints', raw.endpoints],
  ['credentials', raw.credentials],
  ...raw.domain.map((section) => ['domain', section]),
  ...raw.dataResponses.map((section) => ['domain', section]),
  ...raw.flows.map((section) => ['flows', section]),
  ...raw.nlu.map((section) => ['nlu', section]),
  ...raw.stories.map((section) => ['stories', section]),
  ...raw.rules.map((section) => ['stories', section]),
  ...raw.tests.map((section) => ['e2e', section]),
].filter(([, section]) => section !== undefined);
for (const target of [FAST, VERBOSE]) {
  const { script, exports: validators } = runCommonJs(target);
  for (const kind of Object.keys(SCHEMAS)) validators[kind]({});
  for (const [kind, section] of samples) validators[kind](section.data);
  writeFileSync(codeCachePath(target), script.createCachedData());
}
