/**
 * The `A2A-Version` service parameter (spec/a2a.md §1.3): a header, or a query parameter of the same
 * name. Only Major.Minor counts (`1.0.2` is `1.0`); a missing or empty value means a v0.3 client,
 * which never sent one.
 */
import type { Request } from 'express';

export const A2A_VERSION_HEADER = 'A2A-Version';
export const SUPPORTED_VERSIONS = ['0.3', '1.0'] as const;
export type SupportedVersion = (typeof SUPPORTED_VERSIONS)[number];

export type RequestedVersion =
  | { readonly kind: 'absent' }
  | { readonly kind: 'supported'; readonly version: SupportedVersion }
  | { readonly kind: 'unsupported'; readonly requested: string };

const VERSION = /^\s*v?(\d+)(?:\.(\d+))?(?:\.\d+)?\s*$/i;

/** `1.0.2` → `1.0`, `1` → `1.0`; undefined when the text is no version number */
export function majorMinor(text: string): string | undefined {
  const match = VERSION.exec(text);
  if (!match) return undefined;
  return `${Number(match[1])}.${Number(match[2] ?? 0)}`;
}

export function parseRequestedVersion(raw: string | undefined): RequestedVersion {
  if (raw === undefined || raw.trim() === '') return { kind: 'absent' };
  const version = majorMinor(raw);
  const supported = SUPPORTED_VERSIONS.find((item) => item === version);
  return supported
    ? { kind: 'supported', version: supported }
    : { kind: 'unsupported', requested: raw.trim() };
}

/** The version a request asks for: the header first, then the query parameter. */
export function requestedVersion(request: Request): RequestedVersion {
  const header = request.get(A2A_VERSION_HEADER);
  if (header !== undefined && header.trim() !== '') return parseRequestedVersion(header);
  const query: unknown = (request.query as Record<string, unknown> | undefined)?.[A2A_VERSION_HEADER];
  return parseRequestedVersion(typeof query === 'string' ? query : undefined);
}
