/**
 * Reads the shell examples of the README and docs/*.md: fenced `sh`, `bash`, `shell` and `console`
 * blocks, one example per command, with what the doc says should come out of it.
 *
 * - `sh`/`bash`/`shell`: every line that is not blank and not a `#` comment is a command (a trailing `\`
 *   joins the next line).
 * - `console`: lines starting with `$ ` are commands; the lines after one, up to the next, are its output.
 * - A fenced `json` block that is the next fenced block after a shell block, in the same section (no
 *   heading in between), is the documented answer of that block's last command.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface DocExample {
  /** `docs/a2a.md` */
  readonly file: string;
  /** line of the command in the file, 1-based */
  readonly line: number;
  readonly command: string;
  /** `console` blocks: the lines the doc shows the command printing */
  readonly output?: readonly string[];
  /** the documented JSON answer, parsed */
  readonly answer?: unknown;
}

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console']);
const FENCE = /^\s*```\s*([\w-]*)/;

/** README.md, then docs/*.md in name order, relative to `root`. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

interface Block {
  readonly language: string;
  /** line of the first line inside the fence, 1-based */
  readonly firstLine: number;
  readonly lines: readonly string[];
  /** a heading came between the previous block and this one */
  readonly newSection: boolean;
}

function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  let open: { language: string; firstLine: number; lines: string[]; newSection: boolean } | undefined;
  let headingSinceBlock = true;
  lines.forEach((line, index) => {
    const fence = FENCE.exec(line);
    if (open) {
      if (fence && line.trim() === '```') {
        blocks.push(open);
        open = undefined;
        headingSinceBlock = false;
      } else open.lines.push(line);
      return;
    }
    if (fence)
      open = { language: fence[1] ?? '', firstLine: index + 2, lines: [], newSection: headingSinceBlock };
    else if (/^#{1,6} /.test(line)) headingSinceBlock = true;
  });
  return blocks;
}

function commandsOf(block: Block): { line: number; command: string; output?: string[] }[] {
  const found: { line: number; command: string; output?: string[] }[] = [];
  let pending: { line: number; parts: string[] } | undefined;
  block.lines.forEach((raw, index) => {
    const line = block.firstLine + index;
    if (block.language === 'console') {
      if (raw.startsWith('$ ')) found.push({ line, command: raw.slice(2).trim(), output: [] });
      else found.at(-1)?.output?.push(raw);
      return;
    }
    if (pending === undefined && (raw.trim() === '' || raw.trim().startsWith('#'))) return;
    pending ??= { line, parts: [] };
    if (raw.endsWith('\\')) {
      pending.parts.push(raw.slice(0, -1));
      return;
    }
    pending.parts.push(raw);
    found.push({ line: pending.line, command: pending.parts.join(' ').trim() });
    pending = undefined;
  });
  return found;
}

/** Every shell example of one Markdown file. */
export function examplesOf(file: string, text: string): DocExample[] {
  const blocks = blocksOf(text);
  return blocks.flatMap((block, index) => {
    if (!SHELL_LANGUAGES.has(block.language)) return [];
    const commands = commandsOf(block);
    const next = blocks[index + 1];
    const answer = next && next.language === 'json' && !next.newSection ? parseAnswer(file, next) : undefined;
    return commands.map((item, position) => ({
      file,
      line: item.line,
      command: item.command,
      ...(item.output ? { output: item.output } : {}),
      ...(answer !== undefined && position === commands.length - 1 ? { answer } : {}),
    }));
  });
}

function parseAnswer(file: string, block: Block): unknown {
  try {
    return JSON.parse(block.lines.join('\n'));
  } catch (error) {
    throw new Error(`${file}:${block.firstLine}: the answer block is not JSON: ${String(error)}`, {
      cause: error,
    });
  }
}

export function readExamples(root: string): DocExample[] {
  return docFiles(root).flatMap((file) => examplesOf(file, readFileSync(join(root, file), 'utf8')));
}

/**
 * The words of a simple command as a POSIX shell splits them: quotes, backslashes, `#` comments.
 * Anything that would make the shell do more (pipes, redirections, `$` expansions, `;`, `&`) is refused:
 * such an example is not a single request.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let index = 0; index < command.length; index++) {
    const char = command[index] as string;
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === '#' && word === undefined) break;
    else if (char === "'") {
      const end = command.indexOf("'", index + 1);
      if (end < 0) throw new Error(`unterminated ' in: ${command}`);
      word = (word ?? '') + command.slice(index + 1, end);
      index = end;
    } else if (char === '"') {
      let text = '';
      for (index++; command[index] !== '"'; index++) {
        const inner = command[index];
        if (inner === undefined) throw new Error(`unterminated " in: ${command}`);
        if (inner === '$' || inner === '`') throw new Error(`shell expansion in: ${command}`);
        if (inner === '\\' && /["\\$`]/.test(command[index + 1] ?? '')) text += command[++index];
        else text += inner;
      }
      word = (word ?? '') + text;
    } else if (char === '\\') word = (word ?? '') + (command[++index] ?? '');
    else if (/[|&;<>()$`]/.test(char)) throw new Error(`shell syntax '${char}' in: ${command}`);
    else word = (word ?? '') + char;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * Where `actual` differs from the documented `shape`: objects need every documented key (more are
 * fine: the doc abbreviates), arrays the same length and matching items, other values equality, except
 * that a documented string written `<like this>` stands for any string.
 */
export function shapeMismatches(shape: unknown, actual: unknown, path = '$'): string[] {
  if (typeof shape === 'string' && /^<.*>$/.test(shape))
    return typeof actual === 'string' ? [] : [`${path}: a string, got ${JSON.stringify(actual)}`];
  if (Array.isArray(shape)) {
    if (!Array.isArray(actual)) return [`${path}: an array, got ${JSON.stringify(actual)}`];
    if (actual.length !== shape.length)
      return [`${path}: ${shape.length} items, got ${actual.length}: ${JSON.stringify(actual)}`];
    return shape.flatMap((item, index) => shapeMismatches(item, actual[index], `${path}[${index}]`));
  }
  if (typeof shape === 'object' && shape !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
      return [`${path}: an object, got ${JSON.stringify(actual)}`];
    const record = actual as Record<string, unknown>;
    return Object.entries(shape).flatMap(([key, value]) =>
      key in record ? shapeMismatches(value, record[key], `${path}.${key}`) : [`${path}.${key}: missing`],
    );
  }
  return shape === actual ? [] : [`${path}: ${JSON.stringify(shape)}, got ${JSON.stringify(actual)}`];
}
