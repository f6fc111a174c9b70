import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

let typeScriptRegistered = false;

/**
 * Imports a module an assistant ships (actions, custom channels). TypeScript files are loaded through
 * tsx's loader, so assistants need no build step.
 */
export async function importUserModule(path: string): Promise<Record<string, unknown>> {
  if (/\.m?ts$/.test(path) && !typeScriptRegistered) {
    const { register } = await import('tsx/esm/api');
    register();
    typeScriptRegistered = true;
  }
  return (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
}
