// Copies non-TypeScript assets (YAML data shipped with the engine) next to the compiled code.
import { cpSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

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
