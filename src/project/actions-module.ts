import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isActionModuleFile } from '../core/domain/custom-actions.js';

/** The module of actions when endpoints.yml names none: the project's `actions/` folder, as in Rasa. */
export const DEFAULT_ACTIONS_MODULE = 'actions';

const MODULE_EXTENSIONS: readonly string[] = ['.ts', '.mts', '.js', '.mjs'];

/**
 * Where a project's in-process actions live. `action_endpoint.actions_module` is a Python dotted module
 * path in Rasa (`my_pkg.actions`); Parley maps it to the folder `my_pkg/actions/` under the project root
 * or, when there is no such folder, to the single module `my_pkg/actions.ts` (or .mts, .js, .mjs).
 */
export interface ActionsModule {
  /** `missing`: neither exists, and `path` is the folder it would be */
  readonly kind: 'folder' | 'file' | 'missing';
  /** the dotted name, as endpoints.yml writes it */
  readonly name: string;
  /** the name as a path relative to the project root, without extension (`my_pkg/actions`) */
  readonly relativePath: string;
  readonly path: string;
}

/** The dotted module path endpoints.yml names (`action_endpoint.actions_module`), or `actions`. */
export function actionsModuleName(endpoints: Readonly<Record<string, unknown>>): string {
  const section = endpoints['action_endpoint'];
  const name = isRecord(section) ? section['actions_module'] : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : DEFAULT_ACTIONS_MODULE;
}

/**
 * The action server's `url` when endpoints.yml sets one and no `actions_module` (which wins over it, as
 * in Rasa); undefined otherwise.
 */
export function actionServerUrl(endpoints: Readonly<Record<string, unknown>>): string | undefined {
  const section = endpoints['action_endpoint'];
  if (!isRecord(section)) return undefined;
  const module = section['actions_module'];
  if (module !== undefined && module !== null) return undefined;
  const url = section['url'];
  return typeof url === 'string' && url.trim() !== '' ? url : undefined;
}

/** Finds the folder or module file a dotted module path names under the project root. */
export function locateActionsModule(projectRoot: string, name: string): ActionsModule {
  const parts = name.split('.').filter((part) => part !== '');
  const relativePath = parts.join('/');
  const folder = join(projectRoot, ...parts);
  if (isDirectory(folder)) return { kind: 'folder', name, relativePath, path: folder };
  const file = MODULE_EXTENSIONS.map((extension) => `${folder}${extension}`).find(isFile);
  return { kind: file ? 'file' : 'missing', name, relativePath, path: file ?? folder };
}

/** The TypeScript/JavaScript modules Parley would import for the actions module. */
export function actionModuleFiles(module: ActionsModule): string[] {
  if (module.kind === 'file') return [module.path];
  if (module.kind === 'missing') return [];
  return readdirSync(module.path).filter(isActionModuleFile).sort();
}

/**
 * The Python files of the actions module, which Parley does not run: its folder's `.py` files, or the
 * module file `<module>.py` (relative to the project root).
 */
export function pythonModuleFiles(module: ActionsModule, projectRoot: string): string[] {
  if (module.kind === 'folder') return readdirSync(module.path).filter((file) => file.endsWith('.py'));
  const file = `${module.relativePath}.py`;
  return isFile(join(projectRoot, file)) ? [file] : [];
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
