#!/usr/bin/env node
// Launcher: runs the compiled CLI. `npm install` builds dist/ through the `prepare` script: the CLI
// bundled into a few files (a cold start links those instead of hundreds of modules), and the modules.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundled = new URL('../dist/parley-cli.js', import.meta.url);
const compiled = new URL('../dist/cli/main.js', import.meta.url);
const entry = [bundled, compiled].find((url) => existsSync(fileURLToPath(url)));
if (!entry) {
  process.stderr.write('parley: dist/ is missing; run `npm run build` first.\n');
  process.exit(70);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
