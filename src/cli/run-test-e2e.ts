import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { InProcessActionSource } from '../actions/custom/in-process.js';
import { loadActionsFrom } from '../actions/custom/load-actions.js';
import type { ActionStub } from '../actions/custom/stub-source.js';
import { loadProject } from '../project/load-project.js';
import type { ProjectLocation } from '../project/load/discover.js';
import { yamlFilesUnder } from '../project/load/discover.js';
import { formatReport, closingLine } from '../testing/report.js';
import { readOracleFile } from '../testing/oracle.js';
import type { CommandOracle } from '../testing/oracle.js';
import { parseE2ETestFile } from '../testing/parse-e2e.js';
import { runE2E } from '../testing/run-e2e.js';
import { writeResultFiles } from '../testing/result-files.js';
import type { E2EResult } from '../testing/e2e-result.js';
import type { E2ETestFile } from '../testing/e2e-model.js';
import type { Diagnostic } from '../core/errors.js';
import { readFileSync } from 'node:fs';
import { AgentDriverFactory } from './agent-driver.js';
import { runtimeBuiltIns } from './runtime-built-ins.js';
import { composeAgent } from './compose.js';
import { createLogger } from './logger.js';
import { reportCoverage, TranscriptKeepingFactory } from './e2e-coverage.js';
import { chooseUnderstanding } from './understanding.js';
import { useModel } from './use-model.js';
import type { ModelFlags } from './use-model.js';
import { formatDiagnosticsText } from './format-diagnostics.js';
import type { CliIo } from './io.js';
import type { Logger } from '../runtime/logger.js';
import type { Environment } from '../understanding/llm/config.js';

export interface TestE2EOptions {
  readonly location: ProjectLocation;
  readonly projectRoot: string;
  readonly paths: readonly string[];
  readonly oracle?: string;
  /**
   * false: the oracle only supplies fixtures and the selection of deterministic cases, and the
   * assistant's own understanding (e.g. its LLM) reads every message (default true: replay its commands)
   */
  readonly replayOracleCommands?: boolean;
  readonly actions?: string;
  readonly rasaVersion?: string;
  readonly resultsDir?: string;
  readonly failFast: boolean;
  readonly deterministicOnly: boolean;
  readonly quiet: boolean;
  /** where engine errors are logged (default: JSON lines on stderr at LOG_LEVEL or warn) */
  readonly logger?: Logger;
  /**
   * the model archive to take the trained NLU from (`-m`, or the newest matching one in models/, else
   * one trained and written first); absent: the NLU is trained in memory and no file is written
   */
  readonly model?: ModelFlags;
  /** the environment the model config reads (`${VAR}`, OPENAI_BASE_URL, ...); default process.env */
  readonly env?: Environment;
  /** `--coverage-report`: print flow coverage and write its HTML report into this folder */
  readonly coverageDir?: string;
}

export interface TestE2EOutcome {
  readonly results: readonly E2EResult[];
  readonly exitCode: number;
  /** the archive used, when `model` was given */
  readonly model?: { readonly path: string; readonly trainedNow: boolean };
}

/** Loads the assistant and the tests, runs them, prints Rasa's report; exit 0 only when all of at least one passed. */
export async function runTestE2E(io: CliIo, options: TestE2EOptions): Promise<number> {
  return (await executeTestE2E(io, options)).exitCode;
}

export async function executeTestE2E(io: CliIo, options: TestE2EOptions): Promise<TestE2EOutcome> {
  const { project, diagnostics } = loadProject(
    options.location,
    options.rasaVersion ? { rasaVersion: options.rasaVersion } : {},
  );
  if (diagnostics.hasErrors) {
    io.stderr(formatDiagnosticsText(diagnostics.all));
    return { results: [], exitCode: 1 };
  }
  const missing = missingTestPaths(options);
  if (missing.length > 0) {
    io.stderr(formatDiagnosticsText(missing));
    return { results: [], exitCode: 1 };
  }
  const oracle = options.oracle ? readOracleFile(options.oracle) : undefined;
  const files = testFiles(options);
  const broken = reportBrokenFiles(io, files, diagnostics.all);
  const actions = options.actions ? await loadActionsFrom(options.actions) : undefined;
  const logger = options.logger ?? createLogger();
  const replay = oracle !== undefined && options.replayOracleCommands !== false;
  const model = options.model
    ? useModel(io, { project, logger, model: options.model, quiet: options.quiet })
    : undefined;
  if (options.model && !model) return { results: [], exitCode: 1 };
  const understanding = chooseUnderstanding(project.assistant, {
    logger,
    llmOptional: replay,
    ...(model?.nlu ? { trained: model.nlu } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  if (!understanding.ok) {
    io.stderr(`parley: ${understanding.message}\n`);
    return { results: [], exitCode: 1 };
  }
  const builtIns = runtimeBuiltIns({
    assistant: project.assistant,
    index: model?.knowledge,
    logger,
    ...(options.env ? { env: options.env } : {}),
  });
  const agentDrivers = new AgentDriverFactory({
    createAgent: (stubs) =>
      composeAgent({
        assistant: project.assistant,
        projectRoot: options.projectRoot,
        stubs: stubs as ReadonlyMap<string, ActionStub>,
        logger,
        runtimeBuiltIns: builtIns,
        commandGenerator: understanding.generator,
        ...(actions
          ? { extraActionSources: [new InProcessActionSource({ actions, clock: () => Date.now() / 1000 })] }
          : {}),
      }),
  });
  const driverFactory = options.coverageDir ? new TranscriptKeepingFactory(agentDrivers) : agentDrivers;
  const results = await runE2E({
    files:
      options.deterministicOnly && oracle ? onlyDeterministic(files, oracle, options.projectRoot) : files,
    driverFactory,
    projectRoot: options.projectRoot,
    failFast: options.failFast,
    ...(oracle ? { oracle, replayOracleCommands: replay } : {}),
    ...(options.paths.length === 1 && options.paths[0]?.includes('::') ? { filter: options.paths[0] } : {}),
    ...(options.quiet
      ? {}
      : {
          onResult: (result: E2EResult) =>
            io.stdout(
              `${result.passed ? 'PASSED' : 'FAILED'} ${result.file.path}::${result.testCase.name}\n`,
            ),
        }),
  });
  io.stdout(formatReport(results) + '\n');
  if (options.resultsDir) await writeResultFiles(options.resultsDir, results);
  let coverageWritten = true;
  if (options.coverageDir && driverFactory instanceof TranscriptKeepingFactory) {
    coverageWritten = reportCoverage(io, {
      flows: project.assistant.flows,
      projectRoot: options.projectRoot,
      outputDir: options.coverageDir,
      results,
      transcripts: driverFactory.transcripts,
    });
  }
  const passed =
    results.length > 0 && results.every((result) => result.passed) && broken === 0 && coverageWritten;
  return {
    results,
    exitCode: passed ? 0 : 1,
    ...(model ? { model: { path: model.modelPath, trainedNow: model.trainedNow } } : {}),
  };
}

/** A test path that is neither there nor in the project: "no test cases found" would hide the typo. */
function missingTestPaths(options: TestE2EOptions): Diagnostic[] {
  return options.paths
    .map((path) => path.split('::')[0] ?? path)
    .filter((path) => !existsSync(path) && !existsSync(resolve(options.projectRoot, path)))
    .map((path) => ({
      code: 'PATH_NOT_FOUND',
      severity: 'error',
      file: path,
      line: 1,
      column: 1,
      message: `test path ${path}: no such file or folder.`,
      hint: `Name a test file or folder, relative to the current folder or to the project (${options.projectRoot}).`,
    }));
}

function testFiles(options: TestE2EOptions): E2ETestFile[] {
  const roots =
    options.paths.length > 0
      ? options.paths.map((path) => path.split('::')[0] ?? path)
      : ['tests', 'e2e_tests'].map((folder) => resolve(options.projectRoot, folder));
  const paths = yamlFilesUnder(
    roots.map((root) => (existsSync(root) ? root : resolve(options.projectRoot, root))),
  );
  return paths
    .map((path) => parseE2ETestFile({ path, text: readFileSync(path, 'utf8') }))
    .filter((file) => file.testCases.length > 0 || file.problems.length > 0);
}

/**
 * What cannot be read in a test file is an error here (validate only warns about it): each problem is
 * printed, as the loader found it (E2E_TEST_FILE_INVALID, naming the underlying code) or else as the
 * test parser did; the test cases that do read still run, and the run fails. Returns the count.
 */
function reportBrokenFiles(io: CliIo, files: readonly E2ETestFile[], loaded: readonly Diagnostic[]): number {
  const lines = files.flatMap((file) => {
    const found = loaded.filter(
      (item) => item.code === 'E2E_TEST_FILE_INVALID' && resolve(item.file) === resolve(file.path),
    );
    return found.length > 0
      ? found.map(
          (item) =>
            `${item.file}:${item.line}:${item.column} error ${item.code} ${item.message}\n    hint: ${item.hint}`,
        )
      : file.problems.map((problem) => `${file.path}:${problem.line}:1 error E2E_SCHEMA ${problem.message}`);
  });
  if (lines.length > 0) io.stderr(`${lines.join('\n')}\n`);
  return lines.length;
}

function onlyDeterministic(
  files: readonly E2ETestFile[],
  oracle: CommandOracle,
  projectRoot: string,
): E2ETestFile[] {
  return files.map((file) => ({
    ...file,
    testCases: file.testCases.filter(
      (testCase) =>
        oracle.deterministicWithOracle(relativeTo(projectRoot, file.path), testCase.name) !== false,
    ),
  }));
}

function relativeTo(root: string, path: string): string {
  return resolve(path).slice(resolve(root).length + 1);
}

export { closingLine };
