/** RFC 6901 JSON Pointer: parsing, formatting and array index rules, as RFC 6902 JSON Patch uses them. */
import { AppError } from '../errors.js';

export function patchError(message: string, details?: unknown): AppError {
  return new AppError({ code: 'JSON_PATCH_INVALID', message, details });
}

/** `"/a~1b/0"` → `["a/b", "0"]`; `""` (the whole document) → `[]`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw patchError(`JSON pointer "${pointer}" must be empty or start with "/"`);
  if (/~(?![01])/.test(pointer))
    throw patchError(`JSON pointer "${pointer}" has a "~" not followed by 0 or 1`);
  return pointer.slice(1).split('/').map(unescapeToken);
}

export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${escapeToken(token)}`).join('');
}

/** Appends one reference token to a pointer, escaping `~` and `/`. */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${escapeToken(String(token))}`;
}

export function escapeToken(token: string): string {
  // Most tokens (frame fields, indexes) need no escaping; skip the two replaces for them.
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The array index a token names. `-` (one past the end) is only valid where `allowEnd` is set (adding);
 * other indexes must be decimal without leading zeros and inside the array.
 */
export function arrayIndex(token: string, length: number, allowEnd: boolean): number {
  if (token === '-') {
    if (allowEnd) return length;
    throw patchError(`array index "-" is only valid when adding`);
  }
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw patchError(`"${token}" is not an array index`);
  const index = Number(token);
  const limit = allowEnd ? length : length - 1;
  if (index > limit) throw patchError(`array index ${index} is out of bounds (length ${length})`);
  return index;
}
