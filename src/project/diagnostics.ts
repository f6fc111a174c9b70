import { DIAGNOSTIC_CODES } from '../core/diagnostic-codes.js';
import type { DiagnosticCode } from '../core/diagnostic-codes.js';
import type { Diagnostic, SourceRef } from '../core/errors.js';

export interface DiagnosticInput {
  readonly code: DiagnosticCode;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly hint?: string;
  readonly flowId?: string;
  readonly stepId?: string;
  readonly source?: string;
}

/** A key noted as misspelt: the key it stands for, the one written and where. */
export interface MisspeltKey {
  readonly file: string;
  readonly key: string;
  readonly found: string;
  readonly at: SourceRef;
}

/** Collects every problem found while loading and validating; nothing stops at the first one. */
export class ProjectDiagnostics {
  private readonly items: Diagnostic[] = [];
  private readonly misspelt = new Set<string>();
  private readonly misspeltTopLevel: MisspeltKey[] = [];

  /**
   * Notes that the map at `path` of `file` has a near miss of `key` (reported already): the checks that
   * follow do not report `key` as missing there too.
   */
  noteMisspelling(
    file: string,
    path: readonly (string | number)[],
    key: string,
    as: { readonly found: string; readonly at: SourceRef },
  ): void {
    this.misspelt.add(misspeltKey(file, path, key));
    if (path.length === 0) this.misspeltTopLevel.push({ file, key, found: as.found, at: as.at });
  }

  /** The top-level keys noted as misspelt, file by file (a domain's `respones:` stands for `responses`). */
  get misspeltTopLevelKeys(): readonly MisspeltKey[] {
    return this.misspeltTopLevel;
  }

  /** Whether the map at `path` lacks one of `keys` because it was misspelt (see noteMisspelling). */
  isMisspelt(file: string | undefined, path: readonly (string | number)[], keys: readonly string[]): boolean {
    return file !== undefined && keys.some((key) => this.misspelt.has(misspeltKey(file, path, key)));
  }

  add(input: DiagnosticInput): void {
    const info = DIAGNOSTIC_CODES[input.code];
    this.items.push({
      code: input.code,
      severity: info.severity,
      file: input.file,
      line: input.line,
      column: input.column,
      ...(input.flowId === undefined ? {} : { flowId: input.flowId }),
      ...(input.stepId === undefined ? {} : { stepId: input.stepId }),
      message: input.message,
      hint: input.hint ?? info.hint,
      ...(input.source === undefined ? {} : { source: input.source }),
    });
  }

  at(
    code: DiagnosticCode,
    where: SourceRef | undefined,
    message: string,
    extra: Partial<DiagnosticInput> = {},
  ): void {
    const position = where ?? { file: '<unknown>', line: 1, column: 1 };
    this.add({ ...extra, code, file: position.file, line: position.line, column: position.column, message });
  }

  /** Removes the diagnostics `unwanted` picks; returns how many. */
  drop(unwanted: (item: Diagnostic) => boolean): number {
    const before = this.items.length;
    const kept = this.items.filter((item) => !unwanted(item));
    this.items.splice(0, this.items.length, ...kept);
    return before - kept.length;
  }

  get all(): readonly Diagnostic[] {
    return sortDiagnostics(this.items);
  }

  get hasErrors(): boolean {
    return this.items.some((item) => item.severity === 'error');
  }
}

function misspeltKey(file: string, path: readonly (string | number)[], key: string): string {
  return JSON.stringify([file, path.map(String), key]);
}

/** At one position, what fails comes first, then warnings, then notes about them. */
const SEVERITY_ORDER: Record<Diagnostic['severity'], number> = { error: 0, warning: 1, info: 2 };

export function sortDiagnostics(items: readonly Diagnostic[]): Diagnostic[] {
  return [...items].sort(
    (a, b) =>
      byCodeUnits(a.file, b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      byCodeUnits(a.code, b.code),
  );
}

/** Plain string order: localeCompare would set up ICU's collator, a tenth of a cold `validate`. */
function byCodeUnits(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
