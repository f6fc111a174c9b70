/**
 * Where a node of a YAML file is, read off its lines when the file is plain block YAML (indented
 * mappings and `-` lists, plain or simply quoted keys, one-line values): most warnings point at such a
 * key, and answering from the text spares loading and running the position-keeping parser (a sixth of
 * a cold `validate`). Anything else (flow collections, anchors, tags, block scalars on the way, tabs,
 * several documents, a key that is not there) answers `undefined` and the full parser is asked; a test
 * checks both agree on every path of every YAML file of the test projects.
 */
import type { PathSegment } from './yaml-file.js';

export interface LinePosition {
  readonly line: number;
  readonly column: number;
}

/** A piece of a line that starts a node: its line, the column it starts at and its text from there. */
interface Entry {
  readonly line: number;
  readonly column: number;
  readonly text: string;
}

const KEY = /^(?:"([^"\\]*)"|'([^']*)'|([^\s#'"{}[\],&*!|>%@`?:-][^#]*?|-[^\s#][^#]*?))\s*:(?:\s+|$)/;
const UNSAFE_VALUE = /^[[{&*!|>%@`]/;
const NON_STRING_KEY = /^(?:[-+.\d].*|true|false|null|~|True|False|Null|TRUE|FALSE|NULL)$/;

export function blockPositionOf(
  text: string,
  path: readonly PathSegment[],
  preferKey: boolean,
): LinePosition | undefined {
  if (path.length === 0 || text.includes('\t')) return undefined;
  const lines = text.split('\n');
  const all = contentEntries(lines);
  if (all === undefined) return undefined;
  let entries: readonly Entry[] = all;
  let position: LinePosition | undefined;
  for (const [depth, segment] of path.entries()) {
    const last = depth === path.length - 1;
    const step: Step | undefined =
      typeof segment === 'number' ? itemOf(entries, segment) : valueOf(entries, segment);
    if (!step) return undefined;
    if (last) {
      position = preferKey && step.key ? step.key : step.value;
      break;
    }
    if (!step.children) return undefined;
    entries = step.children;
  }
  return position;
}

interface Step {
  readonly key?: LinePosition;
  /** where the value starts; undefined for an empty value (the parser places those elsewhere) */
  readonly value: LinePosition | undefined;
  /** the value's own entries, when it is a block collection */
  readonly children?: readonly Entry[];
}

function valueOf(entries: readonly Entry[], segment: string): Step | undefined {
  if (NON_STRING_KEY.test(segment)) return undefined;
  const indent = entries[0]?.column;
  for (const [index, entry] of entries.entries()) {
    if (entry.column !== indent) continue;
    // at a mapping's column, a `-` line is an item of a list aligned under the key before it
    if (entry.text.startsWith('- ') || entry.text === '-') {
      if (index === 0) return undefined; // a list, not a mapping
      continue;
    }
    const match = KEY.exec(entry.text);
    if (!match) return undefined;
    const name = match[1] ?? match[2] ?? match[3]?.trimEnd();
    if (name !== segment) continue;
    const key = { line: entry.line + 1, column: entry.column + 1 };
    const rest = entry.text.slice(match[0].length);
    const after = entries.slice(index + 1);
    return rest === '' || rest.startsWith('#')
      ? blockValue(key, after, entry.column, true)
      : inlineValue(key, entry, match[0].length, rest);
  }
  return undefined;
}

function itemOf(entries: readonly Entry[], index: number): Step | undefined {
  const indent = entries[0]?.column;
  let seen = 0;
  for (const [position, entry] of entries.entries()) {
    if (entry.column !== indent) continue;
    if (!(entry.text.startsWith('- ') || entry.text === '-')) return undefined;
    if (seen++ !== index) continue;
    const content = entry.text.slice(1).trimStart();
    const contentColumn = entry.column + (entry.text.length - content.length);
    const after = entries.slice(position + 1);
    if (content === '' || content.startsWith('#')) return blockValue(undefined, after, entry.column, false);
    const inline: Entry = { line: entry.line, column: contentColumn, text: content };
    if (UNSAFE_VALUE.test(content)) return undefined;
    const nested = after.filter((candidate) => candidate.column > entry.column);
    const children = [inline, ...takeWhileDeeper(after, entry.column)];
    const looksLikeMapping = KEY.test(content) || content.startsWith('- ');
    return {
      value: { line: entry.line + 1, column: contentColumn + 1 },
      ...(looksLikeMapping || nested.length > 0 ? { children } : {}),
    };
  }
  return undefined;
}

/** A value on the key's own line: a one-line scalar (quoted ones must close on that line). */
function inlineValue(key: LinePosition, entry: Entry, offset: number, rest: string): Step | undefined {
  // a flow collection, alias, tag or block scalar: the key is known, the value is the parser's to place
  if (UNSAFE_VALUE.test(rest)) return { key, value: undefined };
  if ((rest.startsWith('"') || rest.startsWith("'")) && !closesOnLine(rest)) return { key, value: undefined };
  return { key, value: { line: entry.line + 1, column: entry.column + offset + 1 } };
}

function closesOnLine(rest: string): boolean {
  const quote = rest[0];
  if (quote === "'") return /^'(?:[^']|'')*'(?:\s|$)/.test(rest);
  return /^"[^"\\]*"(?:\s|$)/.test(rest);
}

/** A value on the lines below its key: a mapping or list indented deeper, or a list at the key's column. */
function blockValue(
  key: LinePosition | undefined,
  after: readonly Entry[],
  column: number,
  listMayAlign: boolean,
): Step | undefined {
  const first = after[0];
  if (!first) return { ...(key ? { key } : {}), value: undefined };
  const alignedList =
    listMayAlign && first.column === column && (first.text.startsWith('- ') || first.text === '-');
  if (first.column <= column && !alignedList) return { ...(key ? { key } : {}), value: undefined };
  const children = alignedList
    ? after.filter((_, index) => index < endOfAlignedList(after, column))
    : takeWhileDeeper(after, column);
  if (children.some((entry) => UNSAFE_VALUE.test(entry.text) && entry.column === children[0]?.column))
    return undefined;
  return {
    ...(key ? { key } : {}),
    value: { line: first.line + 1, column: first.column + 1 },
    children,
  };
}

function takeWhileDeeper(entries: readonly Entry[], column: number): Entry[] {
  const end = entries.findIndex((entry) => entry.column <= column);
  return end === -1 ? [...entries] : entries.slice(0, end);
}

function endOfAlignedList(entries: readonly Entry[], column: number): number {
  const end = entries.findIndex(
    (entry) => entry.column < column || (entry.column === column && !entry.text.startsWith('-')),
  );
  return end === -1 ? entries.length : end;
}

/**
 * The lines that start something, as entries, without comments and the lines of block scalars (`|`,
 * `>`: their text could look like keys); undefined when the text holds a second document or directives.
 */
function contentEntries(lines: readonly string[]): Entry[] | undefined {
  const entries: Entry[] = [];
  let scalarAbove: number | undefined;
  for (const [index, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const text = line.trimStart();
    const column = line.length - text.length;
    if (text === '') continue;
    if (scalarAbove !== undefined && column > scalarAbove) continue;
    scalarAbove = undefined;
    if (text.startsWith('#')) continue;
    if (text.startsWith('---') || text.startsWith('...') || text.startsWith('%')) {
      if (entries.length > 0 || !/^---\s*(#.*)?$/.test(text)) return undefined;
      continue;
    }
    // the scalar's lines are those indented deeper than its key (after any `- ` before the key)
    if (/(?:^|\s)[|>][-+0-9]*\s*(#.*)?$/.test(text))
      scalarAbove = column + (/^(?:-\s+)*/.exec(text)?.[0].length ?? 0);
    entries.push({ line: index, column, text });
  }
  return entries;
}
