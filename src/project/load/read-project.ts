import { readFileSync } from 'node:fs';
import type { DiagnosticCode } from '../../core/diagnostic-codes.js';
import { ProjectDiagnostics } from '../diagnostics.js';
import { validateFile } from '../schemas/index.js';
import type { FileKind } from '../schemas/index.js';
import type { ProjectFiles } from './discover.js';
import { interpolateEnvironment } from './env-interpolation.js';
import type { Environment } from './env-interpolation.js';
import { parseYamlFile, pointerToPath, positionOf } from './yaml-file.js';
import type { YamlFile } from './yaml-file.js';

/** A YAML file together with the part of it that belongs to one file kind. */
export interface Section {
  readonly file: YamlFile;
  /** the checked content: for data files, only the keys of this kind (`version` + `flows`, ...) */
  readonly data: Record<string, unknown>;
}

export interface RawProject {
  readonly config: Section | undefined;
  readonly domain: readonly Section[];
  readonly flows: readonly Section[];
  readonly nlu: readonly Section[];
  /** `stories:` and `rules:` blocks of training data files (the NLU-based policies' data) */
  readonly stories: readonly Section[];
  readonly rules: readonly Section[];
  /** `responses:` blocks found in training data files; they join the domain */
  readonly dataResponses: readonly Section[];
  readonly endpoints: Section | undefined;
  readonly credentials: Section | undefined;
  readonly tests: readonly Section[];
}

const SCHEMA_CODES: Record<FileKind, DiagnosticCode> = {
  domain: 'DOMAIN_SCHEMA',
  flows: 'FLOWS_SCHEMA',
  nlu: 'NLU_SCHEMA',
  stories: 'STORIES_SCHEMA',
  config: 'CONFIG_SCHEMA',
  endpoints: 'ENDPOINTS_SCHEMA',
  credentials: 'CREDENTIALS_SCHEMA',
  e2e: 'E2E_SCHEMA',
};

export function readProject(
  files: ProjectFiles,
  env: Environment,
  diagnostics: ProjectDiagnostics,
): RawProject {
  const read = (path: string, interpolate: boolean): YamlFile | undefined => {
    const file = readYaml(path, diagnostics);
    if (file && interpolate) interpolateEnvironment(file, env, diagnostics);
    return file;
  };
  const single = (path: string | undefined, kind: FileKind): Section | undefined => {
    const file = path === undefined ? undefined : read(path, true);
    return file ? checked(file, asRecord(file.data), kind, diagnostics) : undefined;
  };
  const dataFiles = files.data.map((path) => read(path, false)).filter(isDefined);
  const pick = (kind: FileKind, key: string): Section[] =>
    dataFiles
      .filter((file) => hasKey(file.data, key))
      .map((file) => checked(file, subset(file.data, key), kind, diagnostics));
  return {
    config: single(files.config, 'config'),
    domain: files.domain
      .map((path) => read(path, true))
      .filter(isDefined)
      .map((file) => checked(file, asRecord(file.data), 'domain', diagnostics)),
    flows: pick('flows', 'flows'),
    nlu: pick('nlu', 'nlu'),
    stories: pick('stories', 'stories'),
    rules: pick('stories', 'rules'),
    dataResponses: pick('domain', 'responses'),
    endpoints: single(files.endpoints, 'endpoints'),
    credentials: single(files.credentials, 'credentials'),
    tests: files.tests.map((path) => readTestFile(path, diagnostics)).filter(isDefined),
  };
}

/**
 * An e2e test file never blocks validate, train or run: what is wrong in it (YAML syntax, the e2e format)
 * is a warning for that file, E2E_TEST_FILE_INVALID, naming the problem's own code; `parley test e2e`
 * reports it as an error. A file that is empty, holds only comments or has no `test_cases` is no test file.
 */
function readTestFile(path: string, diagnostics: ProjectDiagnostics): Section | undefined {
  const own = new ProjectDiagnostics();
  const file = readYaml(path, own, 'test_cases');
  const section =
    file && hasKey(file.data, 'test_cases') ? checked(file, asRecord(file.data), 'e2e', own) : undefined;
  for (const item of own.all) {
    diagnostics.add({
      ...item,
      code: 'E2E_TEST_FILE_INVALID',
      message: `${item.message} (${item.code})`,
    });
  }
  return section;
}

/** Reads and parses a file; with `mustMention`, a file whose text lacks that key is skipped unparsed. */
function readYaml(path: string, diagnostics: ProjectDiagnostics, mustMention?: string): YamlFile | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    diagnostics.add({ code: 'FILE_UNREADABLE', file: path, line: 1, column: 1, message: describe(error) });
    return undefined;
  }
  if (mustMention !== undefined && !text.includes(mustMention)) return undefined;
  return parseYamlFile(path, text, diagnostics);
}

function checked(
  file: YamlFile,
  data: Record<string, unknown>,
  kind: FileKind,
  diagnostics: ProjectDiagnostics,
): Section {
  for (const problem of validateFile(kind, data)) {
    const path = pointerToPath(problem.instancePath);
    const where = positionOf(file, path, true);
    const flowId =
      kind === 'flows' && path[0] === 'flows' && path[1] !== undefined ? String(path[1]) : undefined;
    diagnostics.at(problem.code ?? SCHEMA_CODES[kind], where, problem.message, {
      hint: problem.hint,
      ...(flowId === undefined ? {} : { flowId }),
    });
    const misspelling = problem.misspelling;
    if (misspelling)
      diagnostics.noteMisspelling(file.path, pointerToPath(misspelling.parent), misspelling.intended, {
        found: misspelling.key,
        at: where,
      });
  }
  return { file, data };
}

function subset(data: unknown, key: string): Record<string, unknown> {
  const record = asRecord(data);
  return 'version' in record ? { version: record['version'], [key]: record[key] } : { [key]: record[key] };
}

function hasKey(data: unknown, key: string): boolean {
  return typeof data === 'object' && data !== null && key in data;
}

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
