import type { DiagnosticCode } from '../core/diagnostic-codes.js';
import type { Diagnostic } from '../core/errors.js';
import type { Logger } from '../runtime/logger.js';

/**
 * Says at start-up what `parley data validate` warns about, once per diagnostic: what of the project
 * Parley replaces, ignores or reads without acting on (components, the rephraser, endpoints sections,
 * the vector store), keys it skips, and the rest. Each line carries the diagnostic's code and place, so
 * an operator who never ran validate still learns what differs from Rasa. Notes (`info`) stay quiet.
 */
// the runtime says these itself, exactly, once it has loaded what validate can only guess at
const SAID_BY_THE_RUNTIME: ReadonlySet<DiagnosticCode> = new Set(['CUSTOM_ACTIONS_NOT_IMPLEMENTED']);

export function logStartUpWarnings(logger: Logger, diagnostics: readonly Diagnostic[]): void {
  for (const diagnostic of diagnostics) {
    if (diagnostic.severity !== 'warning' || SAID_BY_THE_RUNTIME.has(diagnostic.code)) continue;
    logger.warn(
      {
        code: diagnostic.code,
        file: diagnostic.file,
        line: diagnostic.line,
        ...(diagnostic.flowId === undefined ? {} : { flowId: diagnostic.flowId }),
      },
      diagnostic.message,
    );
  }
}
