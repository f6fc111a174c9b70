import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { InProcessAction } from './in-process.js';

const ACTION_FILE = /\.(ts|mts|js|mjs)$/;

/**
 * Imports every module of an assistant's `actions/` folder and collects the actions they export
 * (`export default defineAction(...)`, or named exports of actions). TypeScript files are loaded
 * through tsx's loader, so assistants need no build step.
 */
export async function loadInProcessActions(folder: string): Promise<InProcessAction[]> {
  if (!existsSync(folder)) return [];
  const files = readdirSync(folder).filter(
    (file) => ACTION_FILE.test(file) && !file.endsWith('.d.ts') && !file.includes('.test.'),
  );
  if (files.some((file) => /\.m?ts$/.test(file))) await registerTypeScript();
  const actions: InProcessAction[] = [];
  for (const file of files.sort()) {
    const module = (await import(pathToFileURL(resolve(join(folder, file))).href)) as Record<string, unknown>;
    actions.push(...Object.values(module).filter(isAction));
  }
  return actions;
}

let registered = false;

async function registerTypeScript(): Promise<void> {
  if (registered) return;
  const { register } = await import('tsx/esm/api');
  register();
  registered = true;
}

function isAction(value: unknown): value is InProcessAction {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { run?: unknown }).run === 'function'
  );
}
