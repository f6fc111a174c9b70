/**
 * Reads the values of one block of endpoints.yml (after `${VAR}` interpolation, so numbers and
 * booleans may arrive as text), collecting every problem with its diagnostic code instead of throwing.
 */
import { WHOLE_NUMBER_PATTERN } from '../core/a2a-server-rules.js';
import type { DiagnosticCode } from '../core/diagnostic-codes.js';

export interface A2aConfigProblem {
  readonly code: DiagnosticCode;
  /** e.g. `a2a_server.auth.secret` */
  readonly key: string;
  readonly message: string;
}

const WHOLE_NUMBER = new RegExp(WHOLE_NUMBER_PATTERN);

export class ConfigFields {
  readonly problems: A2aConfigProblem[];
  private readonly section: string;
  private readonly raw: Readonly<Record<string, unknown>>;

  constructor(options: {
    section: string;
    raw: Readonly<Record<string, unknown>>;
    problems?: A2aConfigProblem[];
  }) {
    this.section = options.section;
    this.raw = options.raw;
    this.problems = options.problems ?? [];
  }

  has(key: string): boolean {
    return this.raw[key] !== undefined && this.raw[key] !== null;
  }

  value(key: string): unknown {
    return this.raw[key];
  }

  problem(code: DiagnosticCode, key: string, message: string): void {
    this.problems.push({ code, key: key === '' ? this.section : `${this.section}.${key}`, message });
  }

  text(key: string, code: DiagnosticCode, pattern?: { regex: RegExp; message: string }): string | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    if (typeof value !== 'string' || value.trim() === '') this.problem(code, key, 'must be non-empty text');
    else if (pattern && !pattern.regex.test(value)) this.problem(code, key, pattern.message);
    else return value;
    return undefined;
  }

  flag(key: string, code: DiagnosticCode): boolean | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    this.problem(code, key, 'must be true or false');
    return undefined;
  }

  wholeNumber(
    key: string,
    code: DiagnosticCode,
    maximum = Number.MAX_SAFE_INTEGER,
    minimum = 0,
  ): number | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    const parsed = typeof value === 'string' && WHOLE_NUMBER.test(value) ? Number(value) : value;
    if (typeof parsed === 'number' && Number.isInteger(parsed) && parsed >= minimum && parsed <= maximum)
      return parsed;
    const range =
      maximum !== Number.MAX_SAFE_INTEGER
        ? `from ${minimum} to ${maximum}`
        : minimum > 0
          ? `of at least ${minimum}`
          : '(0 or more)';
    this.problem(code, key, `must be a whole number ${range}`);
    return undefined;
  }

  /** a list of non-empty strings; each must match `pattern` when given */
  textList(key: string, code: DiagnosticCode, pattern?: { regex: RegExp; message: string }): string[] {
    if (!this.has(key)) return [];
    const value = this.raw[key];
    if (!Array.isArray(value)) {
      this.problem(code, key, 'must be a list');
      return [];
    }
    const items: string[] = [];
    value.forEach((item: unknown, index) => {
      if (typeof item !== 'string' || item.trim() === '')
        this.problem(code, `${key}[${index}]`, 'must be text');
      else if (pattern && !pattern.regex.test(item)) this.problem(code, `${key}[${index}]`, pattern.message);
      else items.push(item);
    });
    return items;
  }

  unknownKeys(known: readonly string[]): string[] {
    return Object.keys(this.raw).filter((key) => !known.includes(key));
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
