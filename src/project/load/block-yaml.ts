/**
 * A quick reader for plain block YAML, the shape nearly every assistant file has: indented mappings and
 * `-` lists, one-line plain or quoted scalars, `|` and `>` block scalars, and `[a, b]` lists of plain
 * words. In a cold `validate` the general parser runs mostly unoptimised, and reading these files line
 * by line with a few regular expressions takes a fraction of its time (the e2e test files of the bundled
 * assistant above all). Anything it is not sure of (flow collections, anchors, tags, escapes it does not
 * knows, multi-line plain or quoted scalars, several documents, tabs, repeated keys, keys that are not
 * strings) answers `undefined`, and the caller parses the file with js-yaml. A test checks that every
 * answer equals js-yaml's (core schema) on every YAML file of the repository and the corpus, and on
 * generated documents.
 */
import { boolCoreTag, floatCoreTag, intCoreTag, NOT_RESOLVED, nullCoreTag } from 'js-yaml';
import { ENV_REFERENCE } from './env-reference.js';

export interface BlockYaml {
  readonly data: unknown;
  /** whether a plain (unquoted) scalar may hold a `${...}` reference, to be expanded from the environment */
  readonly plainReference: boolean;
  /** whether a quoted or block scalar may hold a `${...}` reference (which stays as written) */
  readonly quotedReference: boolean;
}

class Unsupported extends Error {}

// a text this reader leaves to js-yaml as a whole: tabs, CR, BOM, control and Unicode line characters,
// document markers and directives
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNSUPPORTED_TEXT = /[\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\u2028\u2029\ufeff]|^(?:---|\.\.\.|%)/m;
const BLANK = /^ *(?:#.*)?$/;
const KEY = /^(?:"([^"\\]*)"|'([^']*)'|([^\s#'"{}[\],&*!|>%@`?:-][^#]*?|-[^\s#][^#]*?)) *:(?: +|$)/;
// a plain scalar that may resolve to something other than a string under the core schema
const MAYBE_NOT_STRING = /^(?:[-+.\d~]|(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$)/;
const PLAIN_START = /^(?:[^\s\-?:,[\]{}#&*!|>'"%@`]|[-?:][^\s,[\]{}])/;
const BLOCK_HEADER = /^([|>])(-?)(?: +#.*| *)$/;
const SIMPLE_FLOW_SEQUENCE = /^\[([^[\]{}"'#&*!|>%@`:]*)\](?: +#.*| *)$/;
const AFTER_QUOTE = /^(?: +#.*| *)$/;
// the implicit tags of js-yaml's CORE_SCHEMA, in its order
const CORE_IMPLICIT_TAGS = [nullCoreTag, boolCoreTag, intCoreTag, floatCoreTag] as const;

/** Reads `text` when it is plain block YAML; `undefined` when js-yaml has to. */
export function readBlockYaml(text: string): BlockYaml | undefined {
  if (UNSUPPORTED_TEXT.test(text)) return undefined;
  const reader = new BlockReader(text.split('\n'), text.endsWith('\n'));
  try {
    const data = reader.document();
    return { data, plainReference: reader.plainReference, quotedReference: reader.quotedReference };
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function unsupported(): never {
  throw new Unsupported();
}

function indentOf(line: string): number {
  let indent = 0;
  while (line.charCodeAt(indent) === 32) indent += 1;
  return indent;
}

function isItem(content: string): boolean {
  return content === '-' || content.startsWith('- ');
}

class BlockReader {
  private index = 0;
  plainReference = false;
  quotedReference = false;

  constructor(
    private readonly lines: readonly string[],
    private readonly endsWithNewline: boolean,
  ) {}

  document(): unknown {
    const start = this.nextContent();
    if (start === undefined || indentOf(start) !== 0) unsupported();
    const data = isItem(start) ? this.sequence(0) : this.mapping(0);
    if (this.nextContent() !== undefined) unsupported();
    return data;
  }

  /** The next line that is neither blank nor a comment (the reader stands on it), if any. */
  private nextContent(): string | undefined {
    while (this.index < this.lines.length) {
      const line = this.lines[this.index] as string;
      if (!BLANK.test(line)) return line;
      this.index += 1;
    }
    return undefined;
  }

  /** The value of a `key:` or `-` with nothing after it: a nested block, or null. */
  private nested(owner: number, sequenceAtOwner: boolean): unknown {
    const line = this.nextContent();
    if (line === undefined) return null;
    const indent = indentOf(line);
    const content = line.slice(indent);
    if (indent === owner && sequenceAtOwner && isItem(content)) return this.sequence(indent);
    if (indent <= owner) return null;
    return isItem(content) ? this.sequence(indent) : this.mapping(indent);
  }

  private sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    for (let line = this.nextContent(); line !== undefined; line = this.nextContent()) {
      const at = indentOf(line);
      if (at < indent) break;
      if (at > indent) unsupported();
      const content = line.slice(indent);
      if (!isItem(content)) break;
      this.index += 1;
      const rest = content.slice(1);
      const gap = indentOf(rest);
      const value = rest.slice(gap);
      if (value === '' || value.startsWith('#')) items.push(this.nested(indent, false));
      else if (isItem(value)) unsupported();
      else if (KEY.test(value)) items.push(this.mapping(indent + 1 + gap, value));
      else items.push(this.value(value, indent));
    }
    return items;
  }

  /** A block mapping whose keys start at column `indent`; `first` is the rest of a `- key: value` line. */
  private mapping(indent: number, first?: string): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    let content = first;
    for (;;) {
      if (content === undefined) {
        const line = this.nextContent();
        if (line === undefined) break;
        const at = indentOf(line);
        if (at < indent) break;
        if (at > indent) unsupported();
        content = line.slice(indent);
        if (isItem(content)) break;
        this.index += 1;
      }
      const match = KEY.exec(content) ?? unsupported();
      // YAML limits an implicit key to 1024 characters
      if (match[0].length > 1000) unsupported();
      if (match[3] === undefined) this.noteScalar(match[0], false);
      const key = match[1] ?? match[2] ?? this.plainKey(match[3] as string);
      if (key === '__proto__' || Object.prototype.hasOwnProperty.call(result, key)) unsupported();
      result[key] = this.value(content.slice(match[0].length), indent, true);
      content = undefined;
    }
    return result;
  }

  private plainKey(key: string): string {
    if (MAYBE_NOT_STRING.test(key) || key.startsWith('<<')) unsupported();
    this.noteScalar(key, true);
    return key;
  }

  /** The value after `key:` or `- `, whose owner (key or dash) is at column `owner`. */
  private value(text: string, owner: number, ofKey = false): unknown {
    if (text === '' || text.startsWith('#')) return this.nested(owner, ofKey);
    const header = BLOCK_HEADER.exec(text);
    const value = header
      ? this.blockScalar(owner, header[1] === '>', header[2] === '-')
      : this.inlineValue(text);
    const next = this.nextContent();
    // a more indented line after a one-line value continues it (or is an error): js-yaml's to judge
    if (next !== undefined && indentOf(next) > owner) unsupported();
    return value;
  }

  private inlineValue(text: string): unknown {
    const first = text[0];
    if (first === '"') return this.doubleQuoted(text);
    if (first === "'") {
      const value = singleQuoted(text);
      this.noteScalar(text, false);
      return value;
    }
    if (first === '[' || first === '{') return this.flowCollection(text);
    return this.plain(text);
  }

  private plain(text: string): unknown {
    const comment = text.indexOf(' #');
    const value = (comment === -1 ? text : text.slice(0, comment)).trimEnd();
    if (!PLAIN_START.test(value) || value.includes(': ') || value.endsWith(':')) unsupported();
    this.noteScalar(value, true);
    return MAYBE_NOT_STRING.test(value) ? resolvePlain(value) : value;
  }

  /** Notes a `${...}` in a scalar's source text (for a quoted or block one, its value is asked too). */
  private noteScalar(text: string, plain: boolean): void {
    if (!text.includes('${') || !ENV_REFERENCE.test(text)) return;
    if (plain) this.plainReference = true;
    else this.quotedReference = true;
  }

  private doubleQuoted(text: string): unknown {
    let end = 1;
    while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
    if (end >= text.length || !AFTER_QUOTE.test(text.slice(end + 1))) unsupported();
    const inner = text.slice(1, end);
    const value = inner.includes('\\') ? unescape(inner) : inner;
    this.noteScalar(text, false);
    this.noteScalar(value, false);
    return value;
  }

  private flowCollection(text: string): unknown {
    if (/^\{\}(?: +#.*| *)$/.test(text)) return {};
    const match = SIMPLE_FLOW_SEQUENCE.exec(text) ?? unsupported();
    const body = (match[1] as string).trim();
    if (body === '') return [];
    return body.split(',').map((item) => {
      const value = item.trim();
      if (value === '' || !PLAIN_START.test(value)) unsupported();
      this.noteScalar(value, true);
      return MAYBE_NOT_STRING.test(value) ? resolvePlain(value) : value;
    });
  }

  /** A `|` or `>` block scalar (clip or strip chomping, indentation read off its first line). */
  private blockScalar(owner: number, folded: boolean, strip: boolean): string {
    const start = this.index;
    const first = this.lines[start];
    if (first === undefined || first.trim() === '') unsupported();
    const indent = indentOf(first);
    if (indent <= owner) unsupported();
    const kept: string[] = [];
    let at = start;
    for (; at < this.lines.length; at += 1) {
      const line = this.lines[at] as string;
      if (line.trim() === '') {
        if (line.length > indent) unsupported();
        kept.push('');
        continue;
      }
      if (indentOf(line) < indent) break;
      kept.push(line.slice(indent));
    }
    if (at === this.lines.length && !this.endsWithNewline) unsupported();
    this.index = at;
    while (kept.at(-1) === '') kept.pop();
    const body = folded ? fold(kept) : kept.join('\n');
    this.noteScalar(body, false);
    return strip ? body : `${body}\n`;
  }
}

/** A plain scalar as the core schema reads it: null, a boolean, a number, or the text itself. */
function resolvePlain(source: string): unknown {
  for (const tag of CORE_IMPLICIT_TAGS) {
    const value: unknown = tag.resolve(source, false, tag.tagName);
    if (value !== NOT_RESOLVED) return value;
  }
  return source;
}

// YAML's one-character escapes in double-quoted scalars (\\N and line folding are left to js-yaml)
const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_ESCAPE = /^(?:x[\da-fA-F]{2}|u[\da-fA-F]{4}|U[\da-fA-F]{8})/;

/** The text of a double-quoted scalar with escapes; one this reader does not know is js-yaml's to judge. */
function unescape(inner: string): string {
  let result = '';
  let from = 0;
  for (let at = inner.indexOf('\\'); at !== -1; at = inner.indexOf('\\', from)) {
    result += inner.slice(from, at);
    const next = inner.charAt(at + 1);
    const simple = ESCAPES[next];
    if (simple !== undefined) {
      result += simple;
      from = at + 2;
      continue;
    }
    const hex = HEX_ESCAPE.exec(inner.slice(at + 1)) ?? unsupported();
    const code = Number.parseInt(hex[0].slice(1), 16);
    if (code > 0x10ffff) unsupported();
    result += String.fromCodePoint(code);
    from = at + 1 + hex[0].length;
  }
  return result + inner.slice(from);
}

function singleQuoted(text: string): string {
  let end = 1;
  for (;;) {
    end = text.indexOf("'", end);
    if (end === -1) unsupported();
    if (text[end + 1] !== "'") break;
    end += 2;
  }
  if (!AFTER_QUOTE.test(text.slice(end + 1))) unsupported();
  return text.slice(1, end).replace(/''/g, "'");
}

/** Folds the lines of a `>` scalar: a line break between two text lines becomes a space. */
function fold(lines: readonly string[]): string {
  let result = '';
  let breaks = 0;
  for (const [position, line] of lines.entries()) {
    if (line === '') {
      breaks += 1;
      continue;
    }
    // a more indented line keeps its line breaks: left to js-yaml
    if (line.startsWith(' ')) unsupported();
    if (position > 0) result += breaks === 0 ? ' ' : '\n'.repeat(breaks);
    result += line;
    breaks = 0;
  }
  return result;
}
