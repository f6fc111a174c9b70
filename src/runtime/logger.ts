import { boundedLogValue } from './log-fields.js';

/** The structured logger the runtime writes to (pino's call shape); a silent one by default. */
export interface Logger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  /** the process cannot go on (a start that failed); pino's `fatal`, absent from most test loggers */
  fatal?(fields: Record<string, unknown>, message: string): void;
  /** below the default level: routine noise such as health checks and metric scrapes */
  debug?(fields: Record<string, unknown>, message: string): void;
  /** a logger adding `bindings` to every line (pino's child loggers) */
  child?(bindings: Record<string, unknown>): Logger;
}

export const SILENT_LOGGER: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** A logger adding `fields` to every line: the logger's own child when it has one, else a wrapper. */
export function withFields(logger: Logger, given: Record<string, unknown>): Logger {
  // nothing to add to lines that go nowhere (every request binds its id: a copy of each line's fields)
  if (logger === SILENT_LOGGER) return logger;
  // a pino child's bindings bypass the process logger's bounding hook (log-fields.ts)
  const fields = boundedLogValue(given) as Record<string, unknown>;
  if (logger.child) return logger.child(fields);
  const debug = logger.debug?.bind(logger);
  return {
    info: (more, message) => logger.info({ ...fields, ...more }, message),
    warn: (more, message) => logger.warn({ ...fields, ...more }, message),
    error: (more, message) => logger.error({ ...fields, ...more }, message),
    ...(debug ? { debug: (more, message) => debug({ ...fields, ...more }, message) } : {}),
    child: (more) => withFields(logger, { ...fields, ...more }),
  };
}
