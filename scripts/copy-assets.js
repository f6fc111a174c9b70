// Copies non-TypeScript assets (YAML data shipped with the engine) next to the compiled code. The
// pattern files also get their parsed data as JSON beside them (`*.yml.json`): reading those at start-up
// costs a fraction of parsing the YAML (src/project/defaults.ts reads them when present).
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { dirname } from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';

const assets = [
  'understanding/nlu/repair-intents.yml',
  'core/patterns/default-patterns.yml',
  'core/patterns/versions/rasa-3.16.yml',
  'core/patterns/versions/rasa-3.13.yml',
];
for (const asset of assets) {
  const target = `dist/${asset}`;
  mkdirSync(dirname(target), { recursive: true });
  cpSync(`src/${asset}`, target);
}

for (const asset of assets.filter((path) => path.startsWith('core/patterns/'))) {
  const data = load(readFileSync(`src/${asset}`, 'utf8'), { schema: CORE_SCHEMA });
  const json = JSON.stringify(data);
  // only data that JSON keeps exactly (no .inf, .nan or -0)
  if (!isDeepStrictEqual(JSON.parse(json), data)) throw new Error(`${asset} does not survive JSON`);
  writeFileSync(`dist/${asset}.json`, json);
}

// `parley init` templates: the default one as it is in src/templates/, and the banking one from the
// bundled assistant at the root of this repository, as src/templates/banking.json lists it.
rmSync('dist/templates', { recursive: true, force: true });
cpSync('src/templates/default', 'dist/templates/default', { recursive: true });
cpSync('src/templates/banking.json', 'dist/templates/banking.json');
cpSync('src/templates/_gitignore', 'dist/templates/_gitignore');
const banking = JSON.parse(readFileSync('src/templates/banking.json', 'utf8'));
for (const entry of banking.entries)
  cpSync(entry, `dist/templates/banking/${entry}`, {
    recursive: true,
    filter: (source) => !banking.leaveOut.includes(source) && !/e2e_results_[^/]*\.yml$/.test(source),
  });
