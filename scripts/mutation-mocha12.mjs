// Loaded (`--import`) into Stryker's processes by stryker.config.mjs and imported by scripts/mutation.mjs.
// Stryker's mocha runner (10.1) requires mocha's CLI helpers by extensionless path
// (`mocha/lib/cli/run-helpers`), but mocha 12 ships them as `.cjs` files, which CommonJS resolution does
// not try. Registering `.cjs` with the `.js` loader makes those requires resolve; nothing else changes.
import Module from 'node:module';

const extensions = Module._extensions;
if (!('.cjs' in extensions)) extensions['.cjs'] = extensions['.js'];
