import type { Diagnostic } from '../core/errors.js';

/** Compiler-style lines: `file:line:col severity CODE message`, then the hint indented. */
export function formatDiagnosticsText(diagnostics: readonly Diagnostic[]): string {
  const lines = diagnostics.flatMap((item) => [
    `${item.file}:${item.line}:${item.column} ${item.severity} ${item.code} ${item.message}`,
    `    hint: ${item.hint}`,
  ]);
  lines.push(summaryLine(diagnostics));
  return lines.join('\n') + '\n';
}

export function formatDiagnosticsJson(diagnostics: readonly Diagnostic[]): string {
  const { errors, warnings } = counts(diagnostics);
  return JSON.stringify({ errors, warnings, diagnostics }, null, 2) + '\n';
}

export function summaryLine(diagnostics: readonly Diagnostic[]): string {
  const { errors, warnings } = counts(diagnostics);
  return `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
}

function counts(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  const errors = diagnostics.filter((item) => item.severity === 'error').length;
  return { errors, warnings: diagnostics.length - errors };
}
