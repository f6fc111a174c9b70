import { createRequire } from 'node:module';
import { assetUrl } from './asset-paths.js';

/** Parley's version, from the package.json next to src/ or dist/. */
export const PARLEY_VERSION: string = (createRequire(assetUrl('.'))('../package.json') as { version: string })
  .version;
