import { CORE_SCHEMA, load, loadAll } from 'js-yaml';
import { createRequire } from 'node:module';
import type { Document, LineCounter, Node } from 'yaml';
import type * as YamlModule from 'yaml';
import type { SourceRef } from '../../core/errors.js';
import type { ProjectDiagnostics } from '../diagnostics.js';
import { blockPositionOf } from './block-position.js';
import { readBlockYaml } from './block-yaml.js';

export type PathSegment = string | number;

/**
 * A YAML file read with YAML 1.2 core-schema rules, as Rasa's ruamel loader reads it (`yes` stays a
 * string, no timestamps). The data comes from the line reader of block-yaml.ts when the file is plain
 * block YAML, from the fast js-yaml parser otherwise; the position-keeping document of
 * the `yaml` package is built only when something asks where a node is, which keeps cold starts fast.
 */
export class YamlFile {
  readonly path: string;
  readonly text: string;
  data: unknown;
  /**
   * Whether plain and quoted scalars may hold `${...}` references, when the reader that parsed the file
   * knows; undefined when the text has to be scanned to tell.
   */
  readonly envReferences: EnvReferences | undefined;
  private parsed: { document: Document.Parsed; lineCounter: LineCounter } | undefined;

  constructor(path: string, text: string, data: unknown, envReferences?: EnvReferences) {
    this.path = path;
    this.text = text;
    this.data = data;
    this.envReferences = envReferences;
  }

  get document(): Document.Parsed {
    return this.positions().document;
  }

  get lineCounter(): LineCounter {
    return this.positions().lineCounter;
  }

  private positions(): { document: Document.Parsed; lineCounter: LineCounter } {
    this.parsed ??= parseWithPositions(this.text);
    return this.parsed;
  }
}

export interface EnvReferences {
  readonly plain: boolean;
  readonly quoted: boolean;
}

type YamlLibrary = typeof YamlModule;
let yamlLibrary: YamlLibrary | undefined;

/** The positional parser is loaded on first use: most runs never need a source position. */
export function positionalYaml(): YamlLibrary {
  yamlLibrary ??= createRequire(import.meta.url)('yaml') as YamlLibrary;
  return yamlLibrary;
}

function parseWithPositions(text: string): { document: Document.Parsed; lineCounter: LineCounter } {
  const { LineCounter, parseDocument } = positionalYaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { version: '1.2', schema: 'core', lineCounter, uniqueKeys: true });
  return { document, lineCounter };
}

export function parseYamlFile(
  path: string,
  text: string,
  diagnostics: ProjectDiagnostics,
): YamlFile | undefined {
  const quick = readBlockYaml(text);
  if (quick) {
    const references = { plain: quick.plainReference, quoted: quick.quotedReference };
    return new YamlFile(path, text, quick.data, references);
  }
  try {
    return new YamlFile(path, text, load(text, { schema: CORE_SCHEMA, filename: path }));
  } catch (error) {
    if (holdsNoDocument(text)) return new YamlFile(path, text, null);
    return recoverFromSyntaxErrors(path, text, error, diagnostics);
  }
}

/**
 * An empty file, or one of only comments, blank lines and document markers. Rasa's YAML reader returns
 * nothing for it and the file counts as empty (a credentials.yml of comments configures no channel);
 * js-yaml's `load` refuses it ("the input is empty").
 */
export function holdsNoDocument(text: string): boolean {
  try {
    return loadAll(text, null, { schema: CORE_SCHEMA }).every((document) => document === null);
  } catch {
    return false;
  }
}

/**
 * On failure the position-keeping parser re-reads the file for precise error reports. Only the first
 * syntax error is reported, with its line: the parser's later errors, repeated keys included, are mostly
 * echoes of it (Rasa stops at the first one too). A file whose only problem is a repeated key is otherwise
 * complete, so it is still read (the last value wins): the rest of the project is then checked against
 * it instead of missing it.
 */
function recoverFromSyntaxErrors(
  path: string,
  text: string,
  cause: unknown,
  diagnostics: ProjectDiagnostics,
): YamlFile | undefined {
  const { document, lineCounter } = parseWithPositions(text);
  const duplicateKeys = document.errors.filter((error) => error.code === 'DUPLICATE_KEY');
  const syntaxErrors = document.errors.filter((error) => error.code !== 'DUPLICATE_KEY');
  for (const error of syntaxErrors.length > 0 ? syntaxErrors.slice(0, 1) : duplicateKeys) {
    const { line, col } =
      unclosedQuote(text, error.message) ?? lastWrittenPosition(text, lineCounter.linePos(error.pos[0]));
    const syntax = error.code !== 'DUPLICATE_KEY';
    diagnostics.add({
      code: syntax ? 'YAML_SYNTAX' : 'YAML_DUPLICATE_KEY',
      file: path,
      line,
      column: col,
      // the position is in the diagnostic already: "... at line 3, column 1:" becomes "...."
      message: firstLine(error.message).replace(/ at line \d+, column \d+:$/, '.'),
      ...(syntax ? { source: sourceLine(text, line) } : {}),
    });
  }
  if (document.errors.length > 0) {
    return syntaxErrors.length === 0
      ? new YamlFile(path, text, document.toJS({ maxAliasCount: 1000 }))
      : undefined;
  }
  const mark = (cause as { mark?: { line?: number; column?: number } }).mark;
  const line = (mark?.line ?? 0) + 1;
  diagnostics.add({
    code: 'YAML_SYNTAX',
    file: path,
    line,
    column: (mark?.column ?? 0) + 1,
    message: cause instanceof Error ? firstLine(cause.message) : String(cause),
    source: sourceLine(text, line),
  });
  return undefined;
}

/**
 * An error found at the end of the file (an unclosed `[`) is placed after the last written character,
 * not on the blank line after it, so the line shown is the one to look at.
 */
function lastWrittenPosition(text: string, at: { line: number; col: number }): { line: number; col: number } {
  const lines = text.split('\n');
  if ((lines[at.line - 1] ?? '').trim() !== '') return at;
  if (lines.slice(at.line).some((rest) => rest.trim() !== '')) return at;
  for (let line = at.line - 1; line >= 1; line--) {
    const content = (lines[line - 1] ?? '').replace(/\s+$/, '');
    if (content !== '') return { line, col: content.length + 1 };
  }
  return at;
}

/**
 * A quote that is never closed is found at the end of the file, where the parser gave up; the place to
 * fix is the quote that opened the value: the first line whose value starts with that quote and does not
 * close it on the same line.
 */
function unclosedQuote(text: string, message: string): { line: number; col: number } | undefined {
  const quote = /^Missing closing (["'])quote/.exec(message)?.[1];
  if (quote === undefined) return undefined;
  const opening = new RegExp(`(^\\s*(?:-\\s+)?(?:[^#\\s][^#]*?:\\s+)?)${quote}`);
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const match = opening.exec(lines[index] ?? '');
    if (!match) continue;
    const rest = (lines[index] ?? '').slice((match[1] ?? '').length + 1);
    const closed = quote === '"' ? /(^|[^\\])"/.test(rest) : rest.replace(/''/g, '').includes("'");
    if (!closed) return { line: index + 1, col: (match[1] ?? '').length + 1 };
  }
  return undefined;
}

const MAX_SOURCE_LINE = 200;

/** The text of a 1-based line, cut short when long (a minified file is one huge line). */
function sourceLine(text: string, line: number): string {
  const content = (text.split('\n')[line - 1] ?? '').replace(/\r$/, '');
  return content.length > MAX_SOURCE_LINE ? `${content.slice(0, MAX_SOURCE_LINE)}…` : content;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

/** A source position computed on first use (most model elements never need theirs). */
class LazySourceRef implements SourceRef {
  private resolved: SourceRef | undefined;

  constructor(
    private readonly yamlFile: YamlFile,
    private readonly locate: () => SourceRef,
  ) {}

  get file(): string {
    return this.yamlFile.path;
  }

  get line(): number {
    return this.resolve().line;
  }

  get column(): number {
    return this.resolve().column;
  }

  toJSON(): SourceRef {
    return { file: this.file, line: this.line, column: this.column };
  }

  private resolve(): SourceRef {
    this.resolved ??= this.locate();
    return this.resolved;
  }
}

export function lazyPositionOf(file: YamlFile, path: readonly PathSegment[], preferKey = false): SourceRef {
  const copy = [...path];
  return new LazySourceRef(file, () => positionOf(file, copy, preferKey));
}

/** Like `lazyPositionOf(file, [...path, index])`, for one `- item` line of a block scalar too. */
export function lazyItemPositionOf(file: YamlFile, path: readonly PathSegment[], index: number): SourceRef {
  const copy = [...path];
  return new LazySourceRef(file, () => itemPositionOf(file, copy, index));
}

/**
 * Where the `index`-th item of the value at `path` is: a list item, or the `index`-th `- item` line of a
 * literal block (`examples: |` in NLU data), at the text after the dash. Falls back to the value's key.
 */
export function itemPositionOf(file: YamlFile, path: readonly PathSegment[], index: number): SourceRef {
  const { isScalar, isSeq, Scalar } = positionalYaml();
  const node = nodeAt(file, path);
  if (isSeq(node)) return positionOf(file, [...path, index]);
  if (!isScalar(node) || node.type !== Scalar.BLOCK_LITERAL || !node.range)
    return positionOf(file, path, true);
  let lineStart = node.range[0];
  let seen = 0;
  for (const line of file.text.slice(node.range[0], node.range[1]).split('\n')) {
    const item = /^(\s*- \s*)\S/.exec(line);
    if (item && seen++ === index) {
      const { line: row, col } = file.lineCounter.linePos(lineStart + (item[1]?.length ?? 0));
      return { file: file.path, line: row, column: col };
    }
    lineStart += line.length + 1;
  }
  return positionOf(file, path, true);
}

function nodeAt(file: YamlFile, path: readonly PathSegment[]): unknown {
  let node: unknown = file.document.contents;
  for (const segment of path) {
    node = childOf(node, segment)?.value;
    if (node === undefined) return undefined;
  }
  return node;
}

/** The source position of the node at `path`, or of its deepest existing ancestor. */
export function positionOf(file: YamlFile, path: readonly PathSegment[], preferKey = false): SourceRef {
  const quick = blockPositionOf(file.text, path, preferKey);
  if (quick) return { file: file.path, line: quick.line, column: quick.column };
  return parsedPositionOf(file, path, preferKey);
}

/** positionOf answered by the position-keeping parser (exported for the test that compares the two). */
export function parsedPositionOf(file: YamlFile, path: readonly PathSegment[], preferKey = false): SourceRef {
  let node: unknown = file.document.contents;
  let offset = rangeStart(node) ?? 0;
  for (const segment of path) {
    const step = childOf(node, segment);
    if (!step) break;
    node = step.value;
    offset = (preferKey ? step.keyOffset : undefined) ?? rangeStart(step.value) ?? step.keyOffset ?? offset;
  }
  const { line, col } = file.lineCounter.linePos(offset);
  return { file: file.path, line, column: col };
}

function childOf(node: unknown, segment: PathSegment): { value: unknown; keyOffset?: number } | undefined {
  const { isMap, isScalar, isSeq } = positionalYaml();
  if (isMap(node)) {
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
    if (!pair) return undefined;
    return { value: pair.value, keyOffset: rangeStart(pair.key) };
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment];
    return item === undefined ? undefined : { value: item };
  }
  return undefined;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}

/** Splits a JSON pointer (`/flows/a~1b/steps/0`) into path segments; numeric segments become numbers. */
export function pointerToPath(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}
