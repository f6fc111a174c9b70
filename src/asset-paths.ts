/**
 * Files shipped next to the compiled code (default patterns, precompiled schema validators), located
 * from the folder of this module: `dist/` when built (bundled or not), `src/` when run from source.
 */
const ROOT = new URL('./', import.meta.url);

export function assetUrl(relativePath: string): URL {
  return new URL(relativePath, ROOT);
}
