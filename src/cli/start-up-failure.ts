import { createServer } from 'node:net';
import { AppError } from '../core/errors.js';
import type { Diagnostic } from '../core/errors.js';
import { errorCodeOf } from '../core/error-kinds.js';
import type { Logger } from '../runtime/logger.js';

/** The line a start on a taken port ends with, before anything is trained or opened. */
export function portInUseError(port: number, cause?: unknown): AppError {
  return new AppError({
    code: 'PORT_IN_USE',
    message: `port ${port} is in use: stop the other process or pass --port`,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Whether something listens on the port already: a throwaway listener is opened and closed at once, so a
 * taken port is said before the model is trained or loaded. Port 0 (any free port) is never taken. Another
 * failure to listen (a host that is not this machine's, a port below 1024 without the right) is left to
 * the real listen, which reports it.
 */
export async function isPortInUse(host: string, port: number): Promise<boolean> {
  if (port === 0) return false;
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/** A listen error of the port is the same PORT_IN_USE as the early check; anything else stays as it is. */
export function asStartUpError(error: unknown, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EADDRINUSE' ? portInUseError(port, error) : error;
}

/**
 * A start that failed is logged like every other line of `parley run` (JSON on stderr): a project with
 * errors as one error line per diagnostic, then one fatal line with the failure's stable code. The stack
 * is logged at debug level only: it helps whoever reports a bug, not whoever mistyped a port.
 */
export function logStartUpFailure(logger: Logger, error: unknown, debug: boolean): void {
  const diagnostics = projectDiagnosticsOf(error);
  for (const item of diagnostics.filter((diagnostic) => diagnostic.severity === 'error')) {
    logger.error(
      { code: item.code, file: item.file, line: item.line, column: item.column, hint: item.hint },
      item.message,
    );
  }
  const code = errorCodeOf(error) ?? 'INTERNAL';
  const message =
    diagnostics.length > 0
      ? 'the assistant has errors (listed above): not starting'
      : error instanceof Error
        ? error.message
        : String(error);
  const stack = debug && error instanceof Error && error.stack ? { stack: error.stack } : {};
  (logger.fatal ?? logger.error).call(logger, { code, ...stack }, message);
}

function projectDiagnosticsOf(error: unknown): readonly Diagnostic[] {
  if (!(error instanceof AppError) || error.code !== 'PROJECT_INVALID') return [];
  const details = error.details as { diagnostics?: readonly Diagnostic[] } | undefined;
  return details?.diagnostics ?? [];
}
