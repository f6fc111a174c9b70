/**
 * Reads one block of endpoints.yml (`tracker_store`, `lock_store`) after `${VAR}` interpolation, so
 * numbers may arrive as strings ("5432"). Every problem is collected, none thrown, so that one error
 * lists all of them.
 */
import { AppError } from '../core/errors.js';

export class ConfigReader {
  readonly section: string;
  readonly problems: string[] = [];
  private readonly raw: Readonly<Record<string, unknown>>;

  constructor(options: { section: string; raw: Readonly<Record<string, unknown>> }) {
    this.section = options.section;
    this.raw = options.raw;
  }

  has(key: string): boolean {
    return this.raw[key] !== undefined && this.raw[key] !== null;
  }

  /** the value as written, for readers of shapes this class does not know (a list of names) */
  value(key: string): unknown {
    return this.raw[key];
  }

  problem(message: string): void {
    this.problems.push(message);
  }

  /** a non-empty string; numbers are accepted as their text (a YAML password of digits) */
  string(key: string): string | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number') return String(value);
    if (typeof value === 'string' && value.trim() !== '') return value;
    this.problem(`${this.section}.${key} must be a non-empty string`);
    return undefined;
  }

  /** a whole number within [min, max], given as a number or a numeric string */
  integer(key: string, range: { min: number; max: number }): number | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return undefined;
    const parsed = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof parsed === 'number' && Number.isInteger(parsed) && parsed >= range.min && parsed <= range.max)
      return parsed;
    this.problem(`${this.section}.${key} must be a whole number from ${range.min} to ${range.max}`);
    return undefined;
  }

  /** a positive number of seconds, given as a number or a numeric string */
  seconds(key: string): number | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return undefined;
    const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof parsed === 'number' && Number.isFinite(parsed) && parsed > 0) return parsed;
    this.problem(`${this.section}.${key} must be a positive number of seconds`);
    return undefined;
  }

  boolean(key: string): boolean | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    this.problem(`${this.section}.${key} must be true or false`);
    return undefined;
  }

  /** a map of scalar values, as text (e.g. `query: {sslmode: require}`) */
  stringMap(key: string): Record<string, string> | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return undefined;
    const entries = typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : undefined;
    if (entries && entries.every(([, item]) => ['string', 'number', 'boolean'].includes(typeof item)))
      return Object.fromEntries(entries.map(([name, item]) => [name, String(item)]));
    this.problem(`${this.section}.${key} must be a map of plain values`);
    return undefined;
  }

  /** keys present in the block that no reader asked about (reported as warnings, as Rasa ignores them) */
  unknownKeys(known: readonly string[]): string[] {
    return Object.keys(this.raw).filter((key) => !known.includes(key));
  }

  /** throws STORE_CONFIG_INVALID listing every problem, if there is any */
  throwIfInvalid(): void {
    if (this.problems.length === 0) return;
    throw new AppError({
      code: 'STORE_CONFIG_INVALID',
      message: `endpoints.yml ${this.section} is invalid:\n${this.problems.map((item) => `  - ${item}`).join('\n')}`,
      details: { section: this.section, problems: [...this.problems] },
    });
  }
}
