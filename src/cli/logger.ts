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
