import { WORD_END, WORD_START, escapeRegExp } from './tokens.js';

/** One `regex:` or `lookup:` table of the training data, as stored in a model. */
export interface PatternTable {
  readonly name: string;
  readonly kind: 'regex' | 'lookup';
  readonly patterns: readonly string[];
}

export interface PatternOptions {
  /** default false: patterns match regardless of case (Rasa's `case_sensitive: false`) */
  readonly caseSensitive?: boolean;
  /** default true: lookup entries match whole words only (Rasa's `use_word_boundaries`) */
  readonly useWordBoundaries?: boolean;
}

export interface PatternMatch {
  readonly name: string;
  readonly kind: PatternTable['kind'];
  readonly start: number;
  readonly end: number;
}

interface CompiledPattern {
  readonly name: string;
  readonly kind: PatternTable['kind'];
  readonly regex: RegExp;
}

/** Compiled regex and lookup tables; patterns that do not compile are listed in `invalid`, not thrown. */
export class PatternSet {
  readonly tables: readonly PatternTable[];
  readonly options: Required<PatternOptions>;
  readonly invalid: readonly { readonly name: string; readonly pattern: string }[];
  private readonly compiled: readonly CompiledPattern[];

  constructor(options: { tables: readonly PatternTable[] } & PatternOptions) {
    this.tables = options.tables;
    this.options = {
      caseSensitive: options.caseSensitive ?? false,
      useWordBoundaries: options.useWordBoundaries ?? true,
    };
    const invalid: { name: string; pattern: string }[] = [];
    this.compiled = options.tables.flatMap((table) => compileTable(table, this.options, invalid));
    this.invalid = invalid;
  }

  /** Every non-empty match of every table, in table order. */
  matches(text: string): PatternMatch[] {
    const found: PatternMatch[] = [];
    for (const { name, kind, regex } of this.compiled) {
      for (const match of text.matchAll(regex)) {
        if (match[0].length > 0)
          found.push({ name, kind, start: match.index, end: match.index + match[0].length });
      }
    }
    return found;
  }
}

function compileTable(
  table: PatternTable,
  options: Required<PatternOptions>,
  invalid: { name: string; pattern: string }[],
): CompiledPattern[] {
  const sources = table.kind === 'lookup' ? [lookupSource(table.patterns, options)] : table.patterns;
  const compiled: CompiledPattern[] = [];
  for (const source of sources) {
    if (source === undefined) continue;
    const regex = compile(source, table.kind, options.caseSensitive);
    if (regex) compiled.push({ name: table.name, kind: table.kind, regex });
    else invalid.push({ name: table.name, pattern: source });
  }
  return compiled;
}

function lookupSource(entries: readonly string[], options: Required<PatternOptions>): string | undefined {
  const words = [...new Set(entries.map((entry) => entry.trim()).filter((entry) => entry !== ''))];
  if (words.length === 0) return undefined;
  words.sort((a, b) => b.length - a.length);
  const alternatives = words.map(escapeRegExp).join('|');
  return options.useWordBoundaries ? `${WORD_START}(?:${alternatives})${WORD_END}` : `(?:${alternatives})`;
}

function compile(source: string, kind: PatternTable['kind'], caseSensitive: boolean): RegExp | undefined {
  const { body, flags } = kind === 'regex' ? fromPython(source) : { body: source, flags: 'u' };
  const all = new Set(`g${flags}${caseSensitive ? '' : 'i'}`);
  try {
    return new RegExp(body, [...all].join(''));
  } catch {
    return undefined;
  }
}

/** The few Python `re` spellings that JavaScript writes differently. */
function fromPython(source: string): { body: string; flags: string } {
  let body = source;
  let flags = '';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(body);
  if (inline?.[1]) {
    flags = [...inline[1]].filter((flag) => flag === 'i' || flag === 'm' || flag === 's').join('');
    body = body.slice(inline[0].length);
  }
  body = body
    .replace(/\(\?P<(\w+)>/g, '(?<$1>')
    .replace(/\(\?P=(\w+)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$');
  return { body, flags };
}
