import { relative, resolve, sep } from 'node:path';
import { Definitions } from './definitions.js';
import type { E2ETestCase, E2ETestFile } from './e2e-model.js';
import type { E2EResult } from './e2e-result.js';
import type { DriverFactory } from './driver.js';
import type { CommandOracle } from './oracle.js';
import { normaliseTestPath } from './oracle.js';
import { TestCaseRun } from './test-case-run.js';

export interface RunE2EOptions {
  readonly files: readonly E2ETestFile[];
  readonly driverFactory: DriverFactory;
  /** replays expected commands instead of understanding free text */
  readonly oracle?: CommandOracle;
  /** false: the oracle's commands are not sent, only its fixtures apply (default true) */
  readonly replayOracleCommands?: boolean;
  /** the assistant's folder: oracle entries name test files relative to it */
  readonly projectRoot: string;
  /** `path`, `path::test case name` or `::test case name`; the path may be a file or a folder */
  readonly filter?: string;
  /** stop after the first failing test case */
  readonly failFast?: boolean;
  /** called after each test case, for progress output */
  readonly onResult?: (result: E2EResult) => void;
}

export interface SelectedTestCase {
  readonly file: E2ETestFile;
  readonly testCase: E2ETestCase;
}

/** Runs e2e test cases one after the other, each in a fresh conversation. */
export async function runE2E(options: RunE2EOptions): Promise<E2EResult[]> {
  const selected = selectTestCases(options.files, options.filter, options.projectRoot);
  const definitions = new Definitions(options.files);
  const results: E2EResult[] = [];
  for (const [ordinal, { file, testCase }] of selected.entries()) {
    const run = new TestCaseRun({
      file,
      testCase,
      relativePath: normaliseTestPath(relative(options.projectRoot, file.path)),
      conversationId: `${testCase.name.replace(/\s+/g, '_')}_${ordinal + 1}`,
      driverFactory: options.driverFactory,
      definitions,
      ...(options.oracle ? { oracle: options.oracle } : {}),
      ...(options.replayOracleCommands === false ? { replayOracleCommands: false } : {}),
    });
    const result = await run.run();
    results.push(result);
    options.onResult?.(result);
    if (options.failFast && !result.passed) break;
  }
  return results;
}

/** The test cases a `path::name` filter selects, in file order. */
export function selectTestCases(
  files: readonly E2ETestFile[],
  filter: string | undefined,
  projectRoot: string,
): SelectedTestCase[] {
  const { path, name } = parseFilter(filter ?? '');
  return files
    .filter((file) => pathSelects(path, file.path, projectRoot))
    .flatMap((file) =>
      file.testCases
        .filter((testCase) => name === undefined || testCase.name === name)
        .map((testCase) => ({ file, testCase })),
    );
}

export function parseFilter(filter: string): { path: string; name?: string } {
  const separator = filter.indexOf('::');
  if (separator < 0) return { path: filter };
  const name = filter.slice(separator + 2);
  return name === '' ? { path: filter.slice(0, separator) } : { path: filter.slice(0, separator), name };
}

/** A path selects a file when it is that file or a folder holding it, from the cwd or the project root. */
function pathSelects(path: string, filePath: string, projectRoot: string): boolean {
  if (path === '') return true;
  const target = resolve(filePath);
  return [resolve(path), resolve(projectRoot, path)].some(
    (candidate) =>
      target === candidate || target.startsWith(candidate.endsWith(sep) ? candidate : candidate + sep),
  );
}
