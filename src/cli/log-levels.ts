/**
 * Log level names as a user gives them, apart from the logger itself: every command reads its options
 * at start-up, and only the commands that log load pino.
 */

/** Rasa's level names (LOG_LEVEL=DEBUG, WARNING, CRITICAL) map onto pino's. */
const LEVELS: Readonly<Record<string, string>> = {
  trace: 'trace',
  debug: 'debug',
  info: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  critical: 'fatal',
  fatal: 'fatal',
  silent: 'silent',
};

/** The level names a user may give (Rasa's and pino's). */
export const LEVEL_NAMES: readonly string[] = Object.keys(LEVELS);

/** The pino level for a user's level name, any case; undefined for an unknown name. */
export function logLevelOf(name: string): string | undefined {
  return LEVELS[name.trim().toLowerCase()];
}
