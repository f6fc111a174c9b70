import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node } from 'yaml';
import type { SourceRef } from '../../core/errors.js';
import type { ProjectDiagnostics } from '../diagnostics.js';

/** A parsed YAML file that remembers where every node came from. */
export interface YamlFile {
  readonly path: string;
  readonly document: Document.Parsed;
  readonly lineCounter: LineCounter;
  data: unknown;
}

export type PathSegment = string | number;

/** Parses with YAML 1.2 core-schema rules (as Rasa's ruamel loader does: `yes` stays a string). */
export function parseYamlFile(
  path: string,
  text: string,
  diagnostics: ProjectDiagnostics,
): YamlFile | undefined {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { version: '1.2', schema: 'core', lineCounter, uniqueKeys: true });
  const file: YamlFile = { path, document, lineCounter, data: undefined };
  for (const error of document.errors) {
    const offset = error.pos[0];
    const { line, col } = lineCounter.linePos(offset);
    diagnostics.add({
      code: error.code === 'DUPLICATE_KEY' ? 'YAML_DUPLICATE_KEY' : 'YAML_SYNTAX',
      file: path,
      line,
      column: col,
      message: error.message.split('\n')[0] ?? error.message,
    });
  }
  if (document.errors.length > 0) return undefined;
  file.data = document.toJS({ maxAliasCount: 1000 });
  return file;
}

/** The source position of the node at `path`, or of its deepest existing ancestor. */
export function positionOf(file: YamlFile, path: readonly PathSegment[], preferKey = false): SourceRef {
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
