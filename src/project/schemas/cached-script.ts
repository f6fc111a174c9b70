import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { Script } from 'node:vm';

type CommonJsWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

/** The CommonJS module wrapper around `code`: the source that the build's code cache is made for. */
export function wrapCommonJs(code: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${code}\n})`;
}

/** Where the build writes the V8 code cache of a CommonJS file (the precompiled schema validators). */
export function codeCachePath(path: string): string {
  return `${path}.cache`;
}

/**
 * Runs a CommonJS file as `require` would, with V8's code cache from `codeCachePath(path)` when the build
 * wrote one: the precompiled validators are some 300 KB of code that a cold start otherwise compiles
 * function by function as the files are checked. V8 ignores a cache made by another Node or V8 version or
 * for a source of another length (`cachedDataRejected`); the file is then compiled as without one. The
 * build deletes the cache before it rewrites the file, so that a cache never outlives its source.
 */
export function requireWithCodeCache(path: string): unknown {
  const cache = codeCachePath(path);
  return runCommonJs(path, existsSync(cache) ? readFileSync(cache) : undefined).exports;
}

/** Compiles and runs a CommonJS file; the build warms its functions, then asks the script for the cache. */
export function runCommonJs(file: string, cachedData?: Buffer): { script: Script; exports: unknown } {
  const path = resolve(file);
  const script = new Script(wrapCommonJs(readFileSync(path, 'utf8')), {
    filename: path,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as CommonJsWrapper;
  wrapper(module.exports, createRequire(path), module, path, dirname(path));
  return { script, exports: module.exports };
}
