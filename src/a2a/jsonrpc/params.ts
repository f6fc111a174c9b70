/** Small readers for JSON-RPC params shared by both wire versions; problems are INVALID_PARAMS. */
import { invalidParams } from '../a2a-error.js';

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function record(value: unknown, field: string): Json {
  if (!isRecord(value)) throw invalidParams(`${field} must be an object`, field);
  return value;
}

export function optionalRecord(value: unknown, field: string): Json | undefined {
  return value === undefined || value === null ? undefined : record(value, field);
}

export function text(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '')
    throw invalidParams(`${field} must be a non-empty string`, field);
  return value;
}

/** An optional id: absent, null and '' (what ts-proto clients send for unset) mean none. */
export function optionalText(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalidParams(`${field} must be a string`, field);
  return value;
}

export function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidParams(`${field} must be true or false`, field);
  return value;
}

export function optionalCount(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw invalidParams(`${field} must be a whole number, not negative`, field);
  return value;
}

export function optionalStrings(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw invalidParams(`${field} must be a list of strings`, field);
  return value as string[];
}
