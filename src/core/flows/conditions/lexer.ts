import type { ConditionSyntaxError } from './ast.js';

// pypred's lexer, rule for rule. PLY tries its function rules in definition order (NUMBER before
// STRING) and only then the fixed tokens, longest first; we keep that order, so `12abc` is the
// number 12 followed by the word `abc`, and `-x` is a word while `-1.5` is a number.

export type Keyword =
  'and' | 'or' | 'not' | 'is' | 'contains' | 'matches' | 'true' | 'false' | 'undefined' | 'null' | 'empty';

export type Punctuation = '>=' | '<=' | '==' | '!=' | '>' | '<' | '=' | '(' | ')' | '{' | '}';

export type Token =
  | { readonly kind: 'keyword'; readonly keyword: Keyword; readonly text: string; readonly offset: number }
  | {
      readonly kind: 'punctuation';
      readonly punctuation: Punctuation;
      readonly text: string;
      readonly offset: number;
    }
  | { readonly kind: 'number'; readonly value: number; readonly text: string; readonly offset: number }
  /** A word, a quoted string (quotes included in `text`) or a `/regex/flags` token. */
  | { readonly kind: 'word'; readonly text: string; readonly offset: number }
  | { readonly kind: 'end'; readonly offset: number };

export type LexResult =
  | { readonly ok: true; readonly tokens: readonly Token[] }
  | { readonly ok: false; readonly error: ConditionSyntaxError };

const KEYWORDS: ReadonlySet<string> = new Set<Keyword>([
  'and',
  'or',
  'not',
  'is',
  'contains',
  'matches',
  'true',
  'false',
  'undefined',
  'null',
  'empty',
]);

// pypred ignores ' \t\n'; '\r' is ignored too so CRLF files do not turn into syntax errors.
const WHITESPACE = /[ \t\n\r]+/y;
// Python's \d and \w are Unicode-aware for str patterns; \p{Nd} and [\p{L}\p{N}_] are their equivalents.
const NUMBER = /-?\p{Nd}+(?:\.\p{Nd}+)?/uy;
const WORD = /[\p{L}\p{N}_\-.:;]+|"[^"]*"|'[^']*'|\/[^/]*\/[A-Za-z]*/uy;
const COMMENT = /#[^\n]*/y;
const PUNCTUATION = /[<>=!]=|[<>=(){}]/y;

export function tokenize(text: string): LexResult {
  const tokens: Token[] = [];
  let position = 0;
  while (position < text.length) {
    const skipped = matchAt(WHITESPACE, text, position) ?? matchAt(COMMENT, text, position);
    if (skipped !== undefined) {
      position += skipped.length;
      continue;
    }
    const token = tokenAt(text, position);
    if (token === undefined) return { ok: false, error: lexError(text, position) };
    tokens.push(token);
    position += token.kind === 'end' ? 0 : token.text.length;
  }
  tokens.push({ kind: 'end', offset: text.length });
  return { ok: true, tokens };
}

function tokenAt(text: string, offset: number): Token | undefined {
  const number = matchAt(NUMBER, text, offset);
  if (number !== undefined) return { kind: 'number', value: pythonFloat(number), text: number, offset };
  const word = matchAt(WORD, text, offset);
  if (word !== undefined) {
    const lower = word.toLowerCase();
    return KEYWORDS.has(lower)
      ? { kind: 'keyword', keyword: lower as Keyword, text: word, offset }
      : { kind: 'word', text: word, offset };
  }
  const punctuation = matchAt(PUNCTUATION, text, offset);
  if (punctuation !== undefined) {
    return { kind: 'punctuation', punctuation: punctuation as Punctuation, text: punctuation, offset };
  }
  return undefined;
}

function matchAt(pattern: RegExp, text: string, offset: number): string | undefined {
  pattern.lastIndex = offset;
  return pattern.exec(text)?.[0];
}

/** pypred reports the characters up to the next space (or the single character) it could not read. */
function lexError(text: string, offset: number): ConditionSyntaxError {
  const rest = text.slice(offset);
  const space = rest.indexOf(' ');
  const characters = space > 0 ? rest.slice(0, space) : rest.slice(0, 1);
  return { message: `Failed to parse characters ${JSON.stringify(characters)}`, offset };
}

/** Python's float() accepts any Unicode decimal digits, e.g. Arabic-Indic ones. */
function pythonFloat(text: string): number {
  let ascii = '';
  for (const character of text)
    ascii += /\p{Nd}/u.test(character) ? String(digitValue(character)) : character;
  return Number(ascii);
}

// Unicode lays out every decimal digit set as runs of ten consecutive code points starting at zero.
function digitValue(character: string): number {
  const codePoint = character.codePointAt(0) ?? 0;
  let start = codePoint;
  while (start > 0 && /\p{Nd}/u.test(String.fromCodePoint(start - 1))) start -= 1;
  return (codePoint - start) % 10;
}
