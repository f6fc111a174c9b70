import { destination, pino, stdTimeFunctions } from 'pino';
import type { DestinationStream } from 'pino';
import { boundedLogValue } from '../runtime/log-fields.js';
import type { Logger } from '../runtime/logger.js';
import { logLevelOf } from './log-levels.js';

/**
 * The process logger: structured JSON lines on stderr (pino), always JSON with an ISO `time` (pipe
 * through pino-pretty to read them by eye), at `level` (--log-level), else LOG_LEVEL, else `defaultLevel` (default `warn`
 * for one-shot commands, so their own output stays readable). An unknown level name falls back to
 * the default with a warning rather than stopping the process over a logging setting.
 */
export function createLogger(
  options: { defaultLevel?: string; level?: string; destination?: DestinationStream } = {},
): Logger & { isLevelEnabled(level: string): boolean } {
  const asked = options.level ?? process.env['LOG_LEVEL'];
  const fallback = options.defaultLevel ?? 'warn';
  const level = asked === undefined || asked === '' ? fallback : (logLevelOf(asked) ?? fallback);
  const logger = pino(
    {
      level,
      base: { name: 'parley' },
      timestamp: stdTimeFunctions.isoTime,
      // fields and messages quote what callers sent: bounded, so no request can make a huge line
      hooks: {
        logMethod(args, write) {
          write.apply(this, args.map((arg) => boundedLogValue(arg)) as Parameters<typeof write>);
        },
      },
    },
    options.destination ?? destination(2),
  );
  if (asked !== undefined && asked !== '' && logLevelOf(asked) === undefined)
    logger.warn({ asked, level }, `'${asked}' is not a log level; logging at '${level}'`);
  return logger;
}

/** how long a process that is ending waits for its last log lines to be written */
const FLUSH_WAIT_MS = 1000;

/**
 * Waits (bounded) until the lines logged so far are written. pino writes stderr asynchronously, and a
 * process that ends while a write is still under way can lose it: the server's last lines (and, under
 * load, its first ones) would go missing from what an operator reads after a stop.
 */
export function flushLogs(logger: Logger): Promise<void> {
  const flush = (logger as { flush?: (callback: (error?: Error) => void) => void }).flush;
  if (typeof flush !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_WAIT_MS);
    timer.unref();
    flush.call(logger, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
