import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assetUrl } from '../asset-paths.js';
import { ProjectDiagnostics } from './diagnostics.js';
import { parseYamlFile, YamlFile } from './load/yaml-file.js';

const DEFAULT_PATTERNS = assetUrl('core/patterns/default-patterns.yml');

/** Older Rasa behaviours, newest first; each applies to assistants that ask for its version or older. */
const VERSION_OVERLAYS: readonly { readonly upTo: string; readonly url: URL }[] = [
  { upTo: '3.16', url: assetUrl('core/patterns/versions/rasa-3.16.yml') },
  { upTo: '3.13', url: assetUrl('core/patterns/versions/rasa-3.13.yml') },
];

const cache = new Map<string, YamlFile>();

/**
 * The pattern files for an assistant, most specific first: the overlays of every Rasa version at or
 * above the one asked for (oldest first), then the newest defaults. Without a version: the defaults.
 */
export function defaultPatternFiles(rasaVersion: string | undefined): YamlFile[] {
  const overlays =
    rasaVersion === undefined
      ? []
      : VERSION_OVERLAYS.filter((overlay) => compareVersions(rasaVersion, overlay.upTo) <= 0);
  return [...overlays.reverse().map((overlay) => readShipped(overlay.url)), readShipped(DEFAULT_PATTERNS)];
}

function readShipped(url: URL): YamlFile {
  const path = fileURLToPath(url);
  const cached = cache.get(path);
  if (cached) return cached;
  const text = readFileSync(path, 'utf8');
  // the build stores the parsed data next to the file (scripts/copy-assets.js): JSON reads faster
  const parsed = `${path}.json`;
  if (existsSync(parsed)) {
    const file = new YamlFile(path, text, JSON.parse(readFileSync(parsed, 'utf8')));
    cache.set(path, file);
    return file;
  }
  const diagnostics = new ProjectDiagnostics();
  const file = parseYamlFile(path, text, diagnostics);
  if (!file || diagnostics.hasErrors) {
    throw new Error(`The engine's pattern file ${path} does not parse: ${JSON.stringify(diagnostics.all)}`);
  }
  cache.set(path, file);
  return file;
}

/** Compares dotted version numbers ("3.13" < "3.16" < "3.16.2"). */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
