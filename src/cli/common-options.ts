import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import { checkRasaVersion } from '../core/patterns/rasa-versions.js';
import { LEVEL_NAMES, logLevelOf as pinoLevelOf } from './log-levels.js';

/** `--rasa-version`: only the versions Parley knows; anything else is a usage error that lists them. */
export function rasaVersionOption(description: string): Option {
  return new Option('--rasa-version <version>', description).argParser((value: string) => {
    const checked = checkRasaVersion(value);
    if (!checked.ok) throw new InvalidArgumentError(checked.message);
    return checked.version;
  });
}

export interface LoggingFlags {
  readonly logLevel?: string;
  /** how many times -v was given (`-vv` is twice) */
  readonly verbose?: number;
  readonly debug?: boolean;
  readonly quiet?: boolean;
}

/**
 * `--log-level` (Rasa's and pino's level names, any case) and Rasa's logging flags: `-v/--verbose`
 * (info), `-vv`/`--debug` (debug), `--quiet` (warning), on every command that logs. `quiet` replaces
 * the quiet flag where it does more (`parley test e2e -q` also prints only the report).
 */
export function addLoggingOptions(
  command: Command,
  quiet: { readonly flags: string; readonly description: string } = QUIET,
): Command {
  return command
    .addOption(
      new Option('--log-level <level>', 'level of the JSON logs on stderr (default: LOG_LEVEL)').argParser(
        knownLevel,
      ),
    )
    .option(
      '-v, --verbose',
      'log at info level (-vv: debug)',
      (_value: string, count: number) => count + 1,
      0,
    )
    .option('--debug', 'log at debug level (as -vv)')
    .option(quiet.flags, quiet.description);
}

function knownLevel(value: string): string {
  if (pinoLevelOf(value) !== undefined) return value;
  throw new InvalidArgumentError(
    `'${value}' is not a log level; use one of ${LEVEL_NAMES.join(', ')} (any case).`,
  );
}

const QUIET = { flags: '--quiet', description: 'log warnings and errors only' };

/**
 * The log level the flags ask for, most specific first: `--log-level`, then `--debug`/`-vv`, `-v`,
 * `--quiet`; undefined when none is given (LOG_LEVEL, else the command's default, applies).
 */
export function requestedLogLevel(flags: LoggingFlags): string | undefined {
  if (flags.logLevel) return flags.logLevel;
  if (flags.debug || (flags.verbose ?? 0) >= 2) return 'debug';
  if ((flags.verbose ?? 0) === 1) return 'info';
  if (flags.quiet) return 'warn';
  return undefined;
}

/**
 * Rasa's logging flags on a command that prints a report instead of logs (`data validate`, `train`):
 * `--quiet` keeps the report to what needs acting on (no notes, no progress); `-v`/`-vv`/`--debug` are
 * accepted as in Rasa, the report being complete already.
 */
export function addReportVerbosityOptions(command: Command, quietDescription: string): Command {
  return command
    .option(
      '-v, --verbose',
      'accepted as in Rasa (the report is already complete)',
      (_value: string, count: number) => count + 1,
      0,
    )
    .option('--debug', 'accepted as in Rasa (as -vv)')
    .option('--quiet', quietDescription);
}
