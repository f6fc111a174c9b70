import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ProjectDiagnostics } from './diagnostics.js';
import { parseYamlFile } from './load/yaml-file.js';
import type { YamlFile } from './load/yaml-file.js';

const DEFAULT_PATTERNS = new URL('../core/patterns/default-patterns.yml', import.meta.url);

let cached: YamlFile | undefined;

/** The default pattern flows, responses and slots that ship with the engine (parsed once per process). */
export function defaultPatternsFile(): YamlFile {
  if (cached) return cached;
  const path = fileURLToPath(DEFAULT_PATTERNS);
  const diagnostics = new ProjectDiagnostics();
  const file = parseYamlFile(path, readFileSync(path, 'utf8'), diagnostics);
  if (!file || diagnostics.hasErrors) {
    throw new Error(`The engine's default patterns do not parse: ${JSON.stringify(diagnostics.all)}`);
  }
  cached = file;
  return file;
}
