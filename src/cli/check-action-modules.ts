import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { isInProcessAction } from '../actions/custom/load-actions.js';
import { declaredCustomActions, listNames } from '../core/domain/custom-actions.js';
import type { Domain } from '../core/domain/types.js';
import type { Diagnostic } from '../core/errors.js';
import {
  actionModuleFiles,
  actionServerUrl,
  actionsModuleName,
  locateActionsModule,
} from '../project/actions-module.js';
import { ProjectDiagnostics } from '../project/diagnostics.js';
import { importUserModule } from '../user-modules.js';

export interface ActionModulesInput {
  readonly root: string;
  readonly endpoints: Readonly<Record<string, unknown>>;
  readonly domain: Pick<Domain, 'actions'>;
}

/** ESM syntax at the start of a line: `import x from`, `import {`, `export const`, `export default`... */
const ESM_SYNTAX = /^\s*(import\s*[\w{*'"]|export\s+(default|const|let|var|function|async|class|\{|\*))/m;

/**
 * What `parley run` would meet when it imports the assistant's in-process actions, found before it:
 * each module is imported as run imports it (TypeScript through tsx). Reports an ESM module in a
 * package that is not ESM, a module that does not load, a module exporting no action that no other
 * module imports, and declared custom actions no module exports.
 */
export async function checkActionModules(input: ActionModulesInput): Promise<readonly Diagnostic[]> {
  const diagnostics = new ProjectDiagnostics();
  const module = locateActionsModule(input.root, actionsModuleName(input.endpoints));
  if (module.kind === 'missing') return [];
  const files = actionModuleFiles(module).map((file) =>
    module.kind === 'file' ? file : join(module.path, file),
  );
  const sources = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
  const notEsm = reportPackagesNotEsm(diagnostics, sources);
  const exported = new Set<string>();
  let allLoaded = notEsm.size === 0;
  for (const file of files.filter((path) => !notEsm.has(path))) {
    const names = await actionsOf(diagnostics, file);
    if (names === undefined) allLoaded = false;
    else if (names.length > 0) names.forEach((name) => exported.add(name));
    else if (!importedBySibling(file, sources)) reportNoAction(diagnostics, file);
  }
  if (allLoaded && files.length > 0 && actionServerUrl(input.endpoints) === undefined)
    reportUnexported(diagnostics, input.domain, exported, files[0] ?? module.path);
  return diagnostics.all;
}

/** ESM modules (.ts/.js) whose nearest package.json does not say `"type": "module"`. */
function reportPackagesNotEsm(
  diagnostics: ProjectDiagnostics,
  sources: ReadonlyMap<string, string>,
): Set<string> {
  const byPackage = new Map<string, string[]>();
  for (const [file, source] of sources) {
    if (!['.ts', '.js'].includes(extname(file)) || !ESM_SYNTAX.test(source)) continue;
    const manifest = nearestPackageJson(dirname(resolve(file)));
    if (manifest !== undefined && packageType(manifest) === 'module') continue;
    const key = manifest ?? '';
    byPackage.set(key, [...(byPackage.get(key) ?? []), file]);
  }
  for (const [manifest, files] of byPackage) {
    const where =
      manifest === ''
        ? 'no package.json in their folder or above it, so Node loads them as CommonJS'
        : `${manifest} has no "type": "module", so Node loads them as CommonJS`;
    diagnostics.at(
      'ACTIONS_PACKAGE_NOT_ESM',
      { file: files[0] ?? '', line: 1, column: 1 },
      `The action modules ${listNames(files.map((file) => basename(file)))} use import/export, but there is ${where}; ` +
        'they would fail to load at `parley run` (they were not imported here).',
    );
  }
  return new Set([...byPackage.values()].flat());
}

/** The names of the actions the module exports; undefined when it does not load (reported). */
async function actionsOf(diagnostics: ProjectDiagnostics, file: string): Promise<string[] | undefined> {
  try {
    const exports = await importUserModule(file);
    return Object.values(exports)
      .flatMap((value) => (Array.isArray(value) ? (value as unknown[]) : [value]))
      .filter(isInProcessAction)
      .map((action) => action.name);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown }).code;
    diagnostics.at(
      'ACTION_MODULE_IMPORT_FAILED',
      positionIn(text, file),
      `The action module ${file} does not load${typeof code === 'string' ? ` (${code})` : ''}: ${firstLines(text)}`,
    );
    return undefined;
  }
}

function reportNoAction(diagnostics: ProjectDiagnostics, file: string): void {
  diagnostics.at(
    'ACTION_MODULE_EXPORTS_NO_ACTION',
    { file, line: 1, column: 1 },
    `The action module ${file} exports no action (an object with a string \`name\` and a \`run\` function), ` +
      'and no other action module imports it.',
  );
}

function reportUnexported(
  diagnostics: ProjectDiagnostics,
  domain: Pick<Domain, 'actions'>,
  exported: ReadonlySet<string>,
  file: string,
): void {
  const missing = declaredCustomActions(domain).filter((name) => !exported.has(name));
  if (missing.length === 0) return;
  const them = missing.length === 1 ? 'it' : 'them';
  diagnostics.at(
    'CUSTOM_ACTIONS_NOT_IMPLEMENTED',
    { file, line: 1, column: 1 },
    `${missing.length} declared custom action${missing.length === 1 ? ' is' : 's are'} exported by no action ` +
      `module (${listNames(missing)}) and action_endpoint has no url: each call would fail with ` +
      `utter_internal_error_rasa. Export ${them} with defineAction from a module of ${dirname(file)}/.`,
  );
}

/** A helper module of the folder (`import ... from './bank-data.js'`) is no action module. */
function importedBySibling(file: string, sources: ReadonlyMap<string, string>): boolean {
  const stem = basename(file).replace(/\.[mc]?[jt]s$/, '');
  const specifier = new RegExp(`['"]\\./${escapeRegExp(stem)}(\\.[mc]?[jt]s)?['"]`);
  return [...sources].some(([other, source]) => other !== file && specifier.test(source));
}

function nearestPackageJson(folder: string): string | undefined {
  for (let current = folder; ; current = dirname(current)) {
    const candidate = join(current, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(current) === current) return undefined;
  }
}

function packageType(manifest: string): unknown {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type;
  } catch {
    return undefined;
  }
}

/** `file.ts:3:10` in a loader's message (tsx and esbuild name the position of a syntax error so). */
function positionIn(text: string, file: string): { file: string; line: number; column: number } {
  const at = new RegExp(`${escapeRegExp(basename(file))}:(\\d+):(\\d+)`).exec(text);
  return { file, line: Number(at?.[1] ?? 1), column: Number(at?.[2] ?? 0) + 1 };
}

function firstLines(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.slice(0, 3).join(' ').slice(0, 500);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
