import { destination, pino } from 'pino';
import type { Logger } from '../runtime/logger.js';

/**
 * The process logger: structured JSON lines on stderr (pino), at LOG_LEVEL (default `warn` for
 * one-shot commands, so their own output stays readable).
 */
export function createLogger(options: { defaultLevel?: string; level?: string } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env['LOG_LEVEL'] ?? options.defaultLevel ?? 'warn',
      base: { name: 'parley' },
    },
    destination(2),
  );
}
