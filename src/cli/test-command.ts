import { Command } from 'commander';
import { resolve } from 'node:path';
import { addLoggingOptions, rasaVersionOption, requestedLogLevel } from './common-options.js';
import type { LoggingFlags } from './common-options.js';
import type { CliIo } from './io.js';
import { addProjectOptions, toLocation } from './project-options.js';
import type { ProjectFlags } from './project-options.js';

interface TestFlags extends ProjectFlags, LoggingFlags {
  readonly commandOracle?: string;
  readonly actions?: string;
  readonly rasaVersion?: string;
  readonly e2eResults?: boolean | string;
  readonly failFast?: boolean;
  readonly deterministicOnly?: boolean;
  readonly model?: string;
  readonly coverageReport?: boolean;
  readonly coverageOutputPath?: string;
}

/** Rasa's default folder for `--coverage-report`, inside the assistant's folder. */
const DEFAULT_COVERAGE_FOLDER = 'e2e_coverage_results';

/** `parley test e2e`: runs Rasa e2e test files against the assistant, in process. */
export function testCommand(io: CliIo): Command {
  const test = new Command('test').description('test the assistant');
  const e2e = new Command('e2e')
    .description('run end-to-end conversation tests (Rasa e2e format)')
    .argument(
      '[paths...]',
      'test files or folders, optionally path::test case name (default: tests/ and e2e_tests/)',
    )
    .option(
      '--command-oracle <file>',
      'take the commands of each user turn from an oracle file instead of understanding',
    )
    .option(
      '--actions <module>',
      'a module or folder of in-process actions to use instead of the assistant’s actions/',
    )
    .addOption(rasaVersionOption('reproduce the default pattern behaviour of this Rasa version'))
    .option(
      '-o, --e2e-results [dir]',
      'write e2e_results_passed.yml / e2e_results_failed.yml (default: tests/)',
    )
    .option('--fail-fast', 'stop after the first failing test case')
    .option(
      '--coverage-report',
      'print which flow steps and branches the tests reached, and write an HTML report with a diagram per flow',
    )
    .option(
      '--coverage-output-path <dir>',
      `where --coverage-report writes its report (default: ${DEFAULT_COVERAGE_FOLDER}/ in the project)`,
    )
    .option('--deterministic-only', 'with an oracle: skip the test cases it marks as needing an LLM')
    .option(
      '-m, --model <path>',
      'model archive, or folder of archives (newest); default: the newest model in models/ trained ' +
        'from the current project files, else one trained first',
    );
  addLoggingOptions(e2e, {
    flags: '-q, --quiet',
    description: 'print only the report, and log warnings and errors only',
  });
  addProjectOptions(e2e).action(async (paths: string[], flags: TestFlags) => {
    const { runTestE2E } = await import('./run-test-e2e.js');
    const level = requestedLogLevel(flags);
    const { createLogger } = await import('./logger.js');
    const code = await runTestE2E(io, {
      location: toLocation(flags),
      projectRoot: resolve(flags.project),
      paths,
      ...(flags.commandOracle ? { oracle: flags.commandOracle } : {}),
      ...(flags.actions ? { actions: flags.actions } : {}),
      ...(flags.rasaVersion ? { rasaVersion: flags.rasaVersion } : {}),
      ...(flags.e2eResults
        ? {
            resultsDir:
              typeof flags.e2eResults === 'string' ? flags.e2eResults : resolve(flags.project, 'tests'),
          }
        : {}),
      failFast: flags.failFast ?? false,
      deterministicOnly: flags.deterministicOnly ?? false,
      quiet: flags.quiet ?? false,
      logger: createLogger(level ? { level } : {}),
      model: flags.model !== undefined ? { path: flags.model } : {},
      ...(flags.coverageReport
        ? { coverageDir: flags.coverageOutputPath ?? resolve(flags.project, DEFAULT_COVERAGE_FOLDER) }
        : {}),
    });
    io.setExitCode(code);
  });
  test.addCommand(e2e);
  return test;
}
