/** A copy of the bundled assistant (the repository root) in a folder of its own, for a `parley run` of it. */
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** What the bundled assistant needs to load, train, run its custom actions and its tests. */
export const BUNDLED_ASSISTANT_FILES = [
  'package.json',
  'config.yml',
  'domain.yml',
  'endpoints.yml',
  'credentials.yml',
  'flows',
  'data',
  'actions',
  'tests',
] as const;

export function copyBundledAssistant(to: string, root = process.cwd()): void {
  mkdirSync(to, { recursive: true });
  for (const file of BUNDLED_ASSISTANT_FILES) cpSync(join(root, file), join(to, file), { recursive: true });
  // actions/*.ts import '../src/…', as they do in the repository
  symlinkSync(join(root, 'src'), join(to, 'src'));
  symlinkSync(join(root, 'node_modules'), join(to, 'node_modules'));
}
