/** A logger that keeps what it is told, to tell what the code did without timing it. */
import type { Logger } from '../../src/runtime/logger.js';

export interface RecordingLogger extends Logger {
  /** every message, whatever its level, in order */
  readonly messages: string[];
  /** the warnings alone */
  readonly warnings: string[];
  /** the fields of each warning, in the order of `warnings` */
  readonly warningFields: Record<string, unknown>[];
}

export function recordingLogger(): RecordingLogger {
  const messages: string[] = [];
  const warnings: string[] = [];
  const warningFields: Record<string, unknown>[] = [];
  const keep = (_fields: Record<string, unknown>, message: string) => void messages.push(message);
  return {
    messages,
    warnings,
    warningFields,
    info: keep,
    error: keep,
    warn: (fields, message) => {
      keep(fields, message);
      warnings.push(message);
      warningFields.push(fields);
    },
  };
}
