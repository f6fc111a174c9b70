import type { Diagnostic, Severity } from '../core/errors.js';

/** Compiler-style lines: `file:line:col severity CODE message`, then the hint indented. */
/** Every diagnostic with its hint, then the counts; `quiet` lists errors and warnings only (all counted). */
export function formatDiagnosticsText(
  diagnostics: readonly Diagnostic[],
  options: { readonly quiet?: boolean } = {},
): string {
  const listed = options.quiet ? diagnostics.filter((item) => item.severity !== 'info') : diagnostics;
  const lines = listed.flatMap((item) => [
    `${item.file}:${item.line}:${item.column} ${item.severity} ${item.code} ${item.message}`,
    ...(item.source === undefined ? [] : sourceLines(item.line, item.column, item.source)),
    `    hint: ${item.hint}`,
  ]);
  lines.push(summaryLine(diagnostics));
  return lines.join('\n') + '\n';
}

/** The offending line under its number, and a caret under the column (tabs kept, so it lines up). */
function sourceLines(line: number, column: number, source: string): string[] {
  const gutter = `    ${line} | `;
  const lead = source.slice(0, Math.max(0, column - 1)).replace(/[^\t]/g, ' ');
  return [`${gutter}${source}`, `${' '.repeat(gutter.length - 2)}| ${lead}^`];
}

export function formatDiagnosticsJson(diagnostics: readonly Diagnostic[]): string {
  const { errors, warnings, info } = counts(diagnostics);
  return JSON.stringify({ errors, warnings, info, diagnostics }, null, 2) + '\n';
}

/** `2 errors, 1 warning`, and `, 3 info` when there are notes (they never fail and are no warnings). */
export function summaryLine(diagnostics: readonly Diagnostic[]): string {
  const { errors, warnings, info } = counts(diagnostics);
  const line = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  return info > 0 ? `${line}, ${info} info` : line;
}

function counts(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number; info: number } {
  const count = (severity: Severity): number =>
    diagnostics.filter((item) => item.severity === severity).length;
  return { errors: count('error'), warnings: count('warning'), info: count('info') };
}
