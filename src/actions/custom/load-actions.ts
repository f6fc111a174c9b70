import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isActionModuleFile } from '../../core/domain/custom-actions.js';
import { importUserModule } from '../../user-modules.js';
import type { InProcessAction } from './in-process.js';

/**
 * Imports every module of an assistant's actions folder (`actions/`, or the one `actions_module` names)
 * and collects the actions they export (`export default defineAction(...)`, or named exports of
 * actions). TypeScript files need no build step (see importUserModule).
 */
export async function loadInProcessActions(folder: string): Promise<InProcessAction[]> {
  if (!existsSync(folder)) return [];
  const files = readdirSync(folder).filter(isActionModuleFile);
  const actions: InProcessAction[] = [];
  for (const file of files.sort()) actions.push(...(await actionsOfModule(join(folder, file))));
  return actions;
}

/** The actions of a folder (as above) or of one module, which may also export arrays of actions. */
export async function loadActionsFrom(path: string): Promise<InProcessAction[]> {
  if (existsSync(path) && statSync(path).isDirectory()) return loadInProcessActions(path);
  return actionsOfModule(path);
}

async function actionsOfModule(path: string): Promise<InProcessAction[]> {
  const module = await importUserModule(path);
  return Object.values(module)
    .flatMap((value) => (Array.isArray(value) ? (value as unknown[]) : [value]))
    .filter(isInProcessAction);
}

/** An exported value Parley registers as an action: a string `name` and a `run` function. */
export function isInProcessAction(value: unknown): value is InProcessAction {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { run?: unknown }).run === 'function'
  );
}
