/**
 * The `A2A-Version` service parameter (spec/a2a.md §1.3): a header, or a query parameter of the same
 * name. Only Major.Minor counts (`1.0.2` is `1.0`); a missing or empty value means a v0.3 client,
 * which never sent one.
 */
import type { IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'node:querystring';

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

/**
 * The version a request asks for: the header first, then the query parameter (read as Express's
 * query parser reads it: a repeated parameter is no single value).
 */
export function requestedVersion(request: IncomingMessage): RequestedVersion {
  const header = request.headers['a2a-version'];
  if (typeof header === 'string' && header.trim() !== '') return parseRequestedVersion(header);
  const url = request.url ?? '';
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return { kind: 'absent' };
  const query = parseQuery(url.slice(queryStart + 1))[A2A_VERSION_HEADER];
  return parseRequestedVersion(typeof query === 'string' ? query : undefined);
}
