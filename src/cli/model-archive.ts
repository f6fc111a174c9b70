import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { AppError } from '../core/errors.js';
import type { ProjectFiles } from '../project/load/discover.js';
import { TRAINED_NLU_VERSION } from '../understanding/nlu/trained-nlu-json.js';
import type { TrainedNluJson } from '../understanding/nlu/trained-nlu-json.js';
import type { KnowledgeJson } from '../knowledge/knowledge-index.js';
import { readTar, TarError, writeTar } from './tar.js';

export const MODEL_FORMAT = 'parley-model';
export const MODEL_VERSION = 1;
export const MODEL_SUFFIX = '.tar.gz';

/** `metadata.json`, the archive's first file: what the model is and what it was trained from. */
export interface ModelMetadata {
  readonly format: typeof MODEL_FORMAT;
  readonly version: typeof MODEL_VERSION;
  readonly modelId: string;
  /** fingerprintProject() of the inputs; the same inputs need no new training */
  readonly fingerprint: string;
  readonly trainedAt: string;
  readonly parleyVersion: string;
  readonly assistantId: string | null;
  readonly language: string;
  /** the Rasa version whose default patterns were compiled in; null for the newest */
  readonly rasaVersion: string | null;
  /** `llm`: the project understands through an LLM command generator, and the archive has no NLU */
  readonly understanding: 'nlu' | 'llm' | 'hybrid';
  readonly trainingSeconds: number;
  readonly notes: readonly string[];
}

/** What `parley train` writes, as `models/<YYYYMMDD-HHMMSS>-<fingerprint>.tar.gz` (or a fixed name). */
export interface ModelArchive {
  readonly metadata: ModelMetadata;
  /** the normalised domain and flows, for inspection and for tools that read models */
  readonly compiled: { readonly domain: unknown; readonly flows: unknown };
  readonly nlu: TrainedNluJson | null;
  /** the knowledge index of an EnterpriseSearchPolicy with documents (`knowledge.json`); null without */
  readonly knowledge: KnowledgeJson | null;
}

/**
 * A fingerprint of everything a model depends on: the text of config.yml, the domain and the data
 * files (flows and NLU), the Rasa version whose patterns are compiled in, and Parley's version and
 * model formats (a new version may train differently), and the knowledge documents an
 * EnterpriseSearchPolicy indexes (their text and their paths, which the answers cite). endpoints.yml
 * and credentials.yml are left out: changing a tracker store or a channel does not change the model.
 */
export function fingerprintProject(
  files: ProjectFiles,
  inputs: {
    readonly parleyVersion: string;
    readonly rasaVersion?: string | undefined;
    /** knowledgeDocumentFiles() of the project */
    readonly documents?: readonly string[];
  },
): string {
  const paths = [files.config, ...files.domain, ...files.data, ...(inputs.documents ?? [])].filter(
    (path): path is string => path !== undefined,
  );
  const hash = createHash('sha256')
    .update(`parley ${inputs.parleyVersion} model ${MODEL_VERSION} nlu ${TRAINED_NLU_VERSION}\n`)
    .update(`rasa ${inputs.rasaVersion ?? 'newest'}\n`);
  for (const path of [...new Set(paths)].sort()) {
    hash.update(`${relative(files.root, path)}\n`);
    hash.update(readFileSync(path));
    hash.update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}

export function modelFileName(metadata: ModelMetadata, fixedName?: string): string {
  if (fixedName !== undefined)
    return fixedName.endsWith(MODEL_SUFFIX) ? fixedName : `${fixedName}${MODEL_SUFFIX}`;
  const stamp = metadata.trainedAt.replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `${stamp}-${metadata.fingerprint}${MODEL_SUFFIX}`;
}

/** Writes the archive through a temporary file, so that a reader never sees half a model. */
export function writeModel(folder: string, archive: ModelArchive, fixedName?: string): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, modelFileName(archive.metadata, fixedName));
  const json = (value: unknown) => Buffer.from(JSON.stringify(value, plainJson));
  const entries = [
    { name: 'metadata.json', data: json(archive.metadata) },
    { name: 'domain.json', data: json(archive.compiled.domain) },
    { name: 'flows.json', data: json(archive.compiled.flows) },
    ...(archive.nlu ? [{ name: 'nlu.json', data: json(archive.nlu) }] : []),
    ...(archive.knowledge ? [{ name: 'knowledge.json', data: json(archive.knowledge) }] : []),
  ];
  const mtime = Date.parse(archive.metadata.trainedAt) / 1000;
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, gzipSync(writeTar(entries, mtime)));
  renameSync(temporary, path);
  return path;
}

/** The whole archive; throws AppError MODEL_INVALID when the file is not a model this Parley reads. */
export function readModel(path: string): ModelArchive {
  const files = new Map(untar(path, readBytes(path)).map((entry) => [entry.name, entry.data]));
  const metadata = checkMetadata(path, parseJson(path, files, 'metadata.json'));
  const nlu = files.has('nlu.json') ? (parseJson(path, files, 'nlu.json') as TrainedNluJson) : null;
  if (metadata.understanding !== 'llm' && nlu === null) invalid(path, 'it has no nlu.json');
  const knowledge = files.has('knowledge.json')
    ? (parseJson(path, files, 'knowledge.json') as KnowledgeJson)
    : null;
  const domain = parseJson(path, files, 'domain.json');
  return { metadata, compiled: { domain, flows: parseJson(path, files, 'flows.json') }, nlu, knowledge };
}

/** Only `metadata.json`: it comes first, so the start of the file is enough (no need to unpack weights). */
export function readModelMetadata(path: string): ModelMetadata {
  const head = readHead(path, 64 * 1024);
  let entries;
  try {
    entries = readTar(gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH }), { partial: true });
  } catch (error) {
    return invalid(path, describe(error), error);
  }
  const first = entries[0];
  if (first?.name !== 'metadata.json') return readModel(path).metadata;
  return checkMetadata(path, parseJson(path, new Map([[first.name, first.data]]), 'metadata.json'));
}

/** Model archives in a folder, newest first (by modification time, then name). */
export function listModels(folder: string): string[] {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith(MODEL_SUFFIX))
    .map((name) => ({ path: join(folder, name), mtime: statSync(join(folder, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || b.path.localeCompare(a.path))
    .map((entry) => entry.path);
}

/**
 * The newest model in a folder trained from inputs with this fingerprint. Files that are not readable
 * models are passed over: a damaged old archive must not stop a new one from being trained.
 */
export function findModel(folder: string, fingerprint: string): string | undefined {
  return listModels(folder).find((path) => {
    try {
      return readModelMetadata(path).fingerprint === fingerprint;
    } catch (error) {
      if (error instanceof AppError && error.code === 'MODEL_INVALID') return false;
      throw error;
    }
  });
}

/** Maps and Sets (the domain's indexes) as JSON objects and arrays. */
function plainJson(_key: string, value: unknown): unknown {
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  return value;
}

function readBytes(path: string): Buffer {
  if (!existsSync(path)) throw new AppError({ code: 'MODEL_NOT_FOUND', message: `${path}: no such model.` });
  try {
    return gunzipSync(readFileSync(path));
  } catch (error) {
    return invalid(path, 'it is not a gzip file', error);
  }
}

function readHead(path: string, length: number): Buffer {
  if (!existsSync(path)) throw new AppError({ code: 'MODEL_NOT_FOUND', message: `${path}: no such model.` });
  const handle = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    return buffer.subarray(0, readSync(handle, buffer, 0, length, 0));
  } finally {
    closeSync(handle);
  }
}

function untar(path: string, bytes: Buffer) {
  try {
    return readTar(bytes);
  } catch (error) {
    return invalid(path, describe(error), error);
  }
}

function parseJson(path: string, files: ReadonlyMap<string, Uint8Array>, name: string): unknown {
  const data = files.get(name);
  if (data === undefined) return invalid(path, `it has no ${name}`);
  try {
    return JSON.parse(Buffer.from(data).toString('utf8')) as unknown;
  } catch (error) {
    return invalid(path, `its ${name} is not valid JSON`, error);
  }
}

function checkMetadata(path: string, value: unknown): ModelMetadata {
  const metadata = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (metadata['format'] !== MODEL_FORMAT) invalid(path, 'it is not a Parley model archive');
  if (metadata['version'] !== MODEL_VERSION)
    invalid(
      path,
      `it has archive format ${JSON.stringify(metadata['version'])}; this Parley reads format ${MODEL_VERSION}`,
    );
  if (
    typeof metadata['fingerprint'] !== 'string' ||
    !['nlu', 'llm', 'hybrid'].includes(String(metadata['understanding']))
  )
    invalid(path, 'its metadata.json is incomplete');
  return metadata as unknown as ModelMetadata;
}

function describe(error: unknown): string {
  if (error instanceof TarError) return `it is not a tar archive (${error.message})`;
  return 'it is not a gzip-compressed tar archive';
}

function invalid(path: string, reason: string, cause?: unknown): never {
  throw new AppError({
    code: 'MODEL_INVALID',
    message: `${path} cannot be used: ${reason}. Train a new model with \`parley train --force\`.`,
    ...(cause !== undefined ? { cause } : {}),
  });
}
