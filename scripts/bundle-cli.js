// Bundles the compiled CLI (dist/cli/main.js and what it imports; the commands it loads on use become
// chunks) into a few files at the root of dist/, so that a cold `parley` start resolves and links a
// handful of modules instead of some three hundred. npm packages stay external. The files sit where
// dist/asset-paths.js does, so assetUrl() finds the shipped assets from them as from the modules.
// bin/parley.js runs the bundle when it is there, the modules otherwise.
import { build } from 'esbuild';
import { rmSync, readdirSync } from 'node:fs';

for (const name of readdirSync('dist'))
  if (/^parley-(cli|chunk-[A-Z0-9]+)\.js$/.test(name)) rmSync(`dist/${name}`);

await build({
  entryPoints: { 'parley-cli': 'dist/cli/main.js' },
  outdir: 'dist',
  chunkNames: 'parley-chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
