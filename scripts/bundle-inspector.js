// Bundles the inspector page's script (src/inspector-ui, plain TypeScript for the browser) into one
// file and copies its styles into dist/inspector-ui, where the /inspect route serves them from. Nothing
// is fetched from the network at run time.
import { build } from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';

mkdirSync('dist/inspector-ui', { recursive: true });
await build({
  entryPoints: ['src/inspector-ui/main.ts'],
  outfile: 'dist/inspector-ui/inspector.js',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
cpSync('src/inspector-ui/inspector.css', 'dist/inspector-ui/inspector.css');
