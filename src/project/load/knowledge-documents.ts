import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { AssistantConfig } from '../../core/assistant.js';
import { knowledgeConfigOf } from '../../core/knowledge-config.js';

/** A document of the knowledge base: its path as cited (relative to the project, `/`-separated) and text. */
export interface KnowledgeDocument {
  readonly source: string;
  readonly text: string;
}

/** What is at the configured source: the folder's `.txt` files, or why there are none. */
export type KnowledgeFolder =
  | { readonly kind: 'documents'; readonly folder: string; readonly files: readonly string[] }
  | { readonly kind: 'missing'; readonly folder: string }
  | { readonly kind: 'not_a_folder'; readonly folder: string }
  | { readonly kind: 'empty'; readonly folder: string };

/** Rasa loads `**\/*.txt` of the source folder (langchain's DirectoryLoader with a TextLoader). */
const DOCUMENT_FILE = /\.txt$/i;

/** The `.txt` files under `source` (resolved against the project root), sorted, or why there are none. */
export function knowledgeFolder(root: string, source: string): KnowledgeFolder {
  const folder = isAbsolute(source) ? source : resolve(root, source);
  if (!existsSync(folder)) return { kind: 'missing', folder };
  if (!statSync(folder).isDirectory()) return { kind: 'not_a_folder', folder };
  const files = textFilesUnder(folder).sort();
  return files.length === 0 ? { kind: 'empty', folder } : { kind: 'documents', folder, files };
}

/** The documents of a folder of `.txt` files, each cited by its path relative to the project root. */
export function readKnowledgeDocuments(root: string, files: readonly string[]): KnowledgeDocument[] {
  return files.map((file) => ({
    source: citedPath(root, file),
    text: readFileSync(file, 'utf8').replace(/^\uFEFF/u, ''),
  }));
}

function citedPath(root: string, file: string): string {
  const path = relative(resolve(root), file);
  const shown = path.startsWith('..') || isAbsolute(path) ? file : path;
  return shown.split(sep).join('/');
}

function textFilesUnder(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...textFilesUnder(path));
    else if (entry.isFile() && DOCUMENT_FILE.test(entry.name)) found.push(path);
  }
  return found;
}

/**
 * The document files the knowledge index of a project is built from: the `.txt` files of the source
 * folder of its EnterpriseSearchPolicy; none without the policy or without documents.
 */
export function knowledgeDocumentFiles(config: Pick<AssistantConfig, 'policies'>, root: string): string[] {
  const knowledge = knowledgeConfigOf(config);
  if (!knowledge) return [];
  const folder = knowledgeFolder(root, knowledge.source);
  return folder.kind === 'documents' ? [...folder.files] : [];
}
