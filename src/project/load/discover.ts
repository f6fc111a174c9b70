import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where to find the parts of an assistant; mirrors Rasa's CLI flags. */
export interface ProjectLocation {
  /** the assistant's folder (default: the current directory) */
  readonly project?: string;
  readonly config?: string;
  readonly domain?: string;
  readonly data?: readonly string[];
  readonly endpoints?: string;
  readonly credentials?: string;
  readonly tests?: readonly string[];
}

export interface ProjectFiles {
  readonly root: string;
  readonly config: string | undefined;
  readonly domain: readonly string[];
  readonly data: readonly string[];
  readonly endpoints: string | undefined;
  readonly credentials: string | undefined;
  readonly tests: readonly string[];
  readonly missing: readonly string[];
}

const YAML_FILE = /\.ya?ml$/i;

/** Resolves the flags to concrete YAML files. Paths stay relative to the current directory for display. */
export function discoverProjectFiles(location: ProjectLocation): ProjectFiles {
  const root = location.project ?? '.';
  const missing: string[] = [];
  // A path given on the command line that does not exist is listed in `missing` (reported once, as
  // PATH_NOT_FOUND) and not read: reading it again would only repeat that problem.
  const explicit = (path: string | undefined): string | undefined => {
    if (path === undefined || existsSync(path)) return path;
    missing.push(path);
    return undefined;
  };
  // a project folder that is not there is the one problem to report, not every file missing from it
  if (location.project !== undefined && !existsSync(location.project)) missing.push(location.project);
  const inRoot = (name: string): string | undefined => {
    const path = join(root, name);
    return existsSync(path) ? path : undefined;
  };
  const domainRoots = location.domain
    ? [explicit(location.domain)]
    : [inRoot('domain.yml'), inRoot('domain')];
  const dataRoots = location.data ? location.data.map(explicit) : [inRoot('data'), inRoot('flows')];
  const testRoots = location.tests ? location.tests.map(explicit) : [inRoot('tests'), inRoot('e2e_tests')];
  return {
    root,
    config: location.config ? explicit(location.config) : inRoot('config.yml'),
    domain: yamlFilesUnder(domainRoots),
    data: yamlFilesUnder(dataRoots),
    endpoints: location.endpoints ? explicit(location.endpoints) : inRoot('endpoints.yml'),
    credentials: location.credentials ? explicit(location.credentials) : inRoot('credentials.yml'),
    tests: yamlFilesUnder(testRoots),
    missing,
  };
}

/** Every YAML file under the given files or folders, recursively, in a stable (sorted) order. */
export function yamlFilesUnder(roots: readonly (string | undefined)[]): string[] {
  const found = new Set<string>();
  for (const root of roots) {
    if (root === undefined || !existsSync(root)) continue;
    for (const file of walk(root)) found.add(file);
  }
  return [...found];
}

function walk(path: string): string[] {
  if (!statSync(path).isDirectory()) return YAML_FILE.test(path) ? [path] : [];
  return readdirSync(path)
    .sort()
    .filter((entry) => !entry.startsWith('.'))
    .flatMap((entry) => walk(join(path, entry)));
}

export function isSameFile(a: string, b: string): boolean {
  return resolve(a) === resolve(b);
}
