// Copies non-TypeScript assets (YAML data shipped with the engine) next to the compiled code. The
// pattern files also get their parsed data as JSON beside them (`*.yml.json`): reading those at start-up
// costs a fraction of parsing the YAML (src/project/defaults.ts reads them when present).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
