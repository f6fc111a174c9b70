import { PARLEY_VERSION } from '../../version.js';

/** What `parley init` does to the project's package.json. */
export type PackageJsonPlan =
  | { readonly kind: 'create' | 'update'; readonly text: string; readonly changes: readonly string[] }
  | { readonly kind: 'keep' }
  | { readonly kind: 'unreadable'; readonly reason: string };

const SCRIPTS: Readonly<Record<string, string>> = {
  validate: 'parley data validate',
  train: 'parley train',
  test: 'parley test e2e',
  start: 'parley run',
};

/**
 * A new project gets a package.json of its own: ESM (`"type": "module"`, so the custom actions'
 * `import { defineAction } from 'parley'` loads) and depending on this version of Parley. An existing
 * one (a folder where `npm install parley` already ran) keeps every key it has; what is missing of the
 * above is added, and `"type"` becomes `"module"`.
 */
export function planPackageJson(existing: string | undefined, projectName: string): PackageJsonPlan {
  if (existing === undefined) return { kind: 'create', text: newPackageJson(projectName), changes: [] };
  const parsed = parseObject(existing);
  if (typeof parsed === 'string') return { kind: 'unreadable', reason: parsed };
  return merged(parsed);
}

/** The package.json of a new project. */
export function newPackageJson(projectName: string): string {
  const created = {
    name: projectName,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: SCRIPTS,
    dependencies: { parley: `^${PARLEY_VERSION}` },
  };
  return `${JSON.stringify(created, null, 2)}\n`;
}

function merged(data: Record<string, unknown>): PackageJsonPlan {
  const changes: string[] = [];
  if (data['type'] !== 'module') {
    changes.push(`"type": "module" (was ${JSON.stringify(data['type'] ?? 'commonjs')})`);
    data['type'] = 'module';
  }
  const dependencies = isRecord(data['dependencies']) ? data['dependencies'] : {};
  if (!('parley' in dependencies)) {
    dependencies['parley'] = `^${PARLEY_VERSION}`;
    changes.push(`dependency parley ^${PARLEY_VERSION}`);
  }
  data['dependencies'] = dependencies;
  const scripts = isRecord(data['scripts']) ? data['scripts'] : {};
  for (const [name, command] of Object.entries(SCRIPTS))
    // npm init writes a failing placeholder `test` script; Parley's replaces it
    if (!(name in scripts) || String(scripts[name]).includes('no test specified')) {
      scripts[name] = command;
      changes.push(`script ${name}`);
    }
  data['scripts'] = scripts;
  if (changes.length === 0) return { kind: 'keep' };
  return { kind: 'update', text: `${JSON.stringify(data, null, 2)}\n`, changes };
}

function parseObject(text: string): Record<string, unknown> | string {
  try {
    const data: unknown = JSON.parse(text);
    return isRecord(data) ? data : 'it is not a JSON object';
  } catch (error) {
    return `it is not valid JSON (${error instanceof Error ? error.message : String(error)})`;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An npm package name from a folder name: lower case, URL-safe, `my-assistant` when nothing is left. */
export function packageNameFor(folderName: string): string {
  const name = folderName
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '')
    .slice(0, 214);
  return name === '' ? 'my-assistant' : name;
}
