#!/usr/bin/env node
// Launcher: runs the compiled CLI. `npm install` builds dist/ through the `prepare` script.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(compiled))) {
  process.stderr.write('parley: dist/ is missing; run `npm run build` first.\n');
  process.exit(70);
}
const { main } = await import(compiled.href);
process.exitCode = await main(process.argv);
