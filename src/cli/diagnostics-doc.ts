import { DIAGNOSTIC_CODES } from '../core/diagnostic-codes.js';

/** The reference page of every load and validation diagnostic, generated from the catalogue. */
export function renderDiagnosticsDoc(): string {
  const rows = Object.entries(DIAGNOSTIC_CODES).map(
    ([code, info]) => `| \`${code}\` | ${info.severity} | ${escape(info.summary)} | ${escape(info.hint)} |`,
  );
  return [
    '# Diagnostics',
    '',
    '`parley data validate` (alias `parley validate`) reports every problem it finds at once, each with a',
    'stable code, a severity, the file, line and column, the flow and step where it applies, a message and',
    'a hint. `--format json` prints the same as JSON. The exit code is 1 when there is at least one error,',
    'otherwise 0 (warnings alone do not fail; an `info` is a note, never counted as a warning). Codes never change meaning; new ones are only added.',
    '',
    'This page is generated from `src/core/diagnostic-codes.ts` by `npm run docs:diagnostics`.',
    '',
    '| code | severity | meaning | hint |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

function escape(text: string): string {
  return text.replace(/\|/g, '\\|');
}
