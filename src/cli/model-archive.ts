import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ProjectFiles } from '../project/load/discover.js';

/** What `parley train` writes: the inputs' fingerprint, the compiled assistant, and the trained NLU. */
export interface ModelArchive {
  readonly format: 'parley-model';
  readonly version: 1;
  readonly fingerprint: string;
  readonly createdAt: string;
  readonly parleyVersion: string;
  /** the normalised flows and domain, for inspection and for tools that read models */
  readonly compiled: { readonly flows: unknown; readonly domain: unknown };
  /** the trained NLU pipeline (understanding's serialised model) */
  readonly nlu: unknown;
}

const SUFFIX = '.parley.json.gz';

/**
 * A fingerprint of everything training depends on: the text of every project file, and Parley's version
 * (a new version may train differently). Same inputs, same fingerprint, so training can be skipped.
 */
export function fingerprintProject(files: ProjectFiles, parleyVersion: string): string {
  const paths = [files.config, files.endpoints, ...files.domain, ...files.data].filter(
    (path): path is string => path !== undefined,
  );
  const hash = createHash('sha256').update(`parley ${parleyVersion}\n`);
  for (const path of [...new Set(paths)].sort()) {
    hash.update(`${relative(files.root, path)}\n`);
    hash.update(readFileSync(path));
    hash.update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}

export function modelFileName(archive: ModelArchive): string {
  const stamp = archive.createdAt.replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `${stamp}-${archive.fingerprint}${SUFFIX}`;
}

export function writeModel(folder: string, archive: ModelArchive): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, modelFileName(archive));
  writeFileSync(path, gzipSync(JSON.stringify(archive)));
  return path;
}

export function readModel(path: string): ModelArchive {
  const archive = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as ModelArchive;
  if (archive.format !== 'parley-model' || archive.version !== 1)
    throw new Error(`${path} is not a Parley model archive.`);
  return archive;
}

/** The newest model in a folder, optionally only one trained from inputs with this fingerprint. */
export function findModel(folder: string, fingerprint?: string): string | undefined {
  if (!existsSync(folder)) return undefined;
  const candidates = readdirSync(folder)
    .filter(
      (name) =>
        name.endsWith(SUFFIX) && (fingerprint === undefined || name.includes(`-${fingerprint}${SUFFIX}`)),
    )
    .map((name) => join(folder, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs || b.localeCompare(a));
  return candidates[0];
}
