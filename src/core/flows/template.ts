import { pyStr } from './conditions/python-str.js';
import { hasKey, isDict } from './conditions/python-values.js';

// The small part of Jinja that flows use: `{{ path }}` placeholders in conditions and action names
// (`slots.{{context.collect}} is not null`, `validate_{{context.collect}}`), rendered the way Rasa's
// `Template(text).render({context: ...})` renders them:
// - a value prints as Python's str(): null is "None", booleans "True"/"False", lists "['a', 'b']";
// - a name or key that does not exist is Jinja's Undefined, which prints as the empty string;
// - `{{-` and `-}}` trim the whitespace next to the placeholder; newlines are normalised to "\n"
//   and one trailing newline is dropped, as Jinja does by default.
// Deliberate differences: looking a key up on something undefined (`{{context.missing.key}}`)
// renders "" where Jinja raises; and a placeholder that is not a dotted path (filters, calls,
// arithmetic) is left as written, so the problem surfaces when the result is parsed or resolved.

const PLACEHOLDER = /\{\{(-?)([\s\S]*?)(-?)\}\}/g;
const PATH = /^[\p{L}_][\p{L}\p{N}_]*(?:\.(?:[\p{L}_][\p{L}\p{N}_]*|[0-9]+))*$/u;

export function hasTemplate(text: string): boolean {
  return /\{\{[\s\S]*?\}\}/.test(text);
}

export function renderTemplate(text: string, scope: Readonly<Record<string, unknown>>): string {
  const { literals, placeholders } = compiled(text);
  let output = literals[0] ?? '';
  placeholders.forEach((placeholder, index) => {
    output += renderPlaceholder(placeholder, scope) + (literals[index + 1] ?? '');
  });
  return output;
}

/**
 * A template split once into its literal text (already trimmed where `{{-` and `-}}` ask) and its
 * placeholders; `literals` has one more entry than `placeholders`, which go between them.
 */
interface CompiledTemplate {
  readonly literals: readonly string[];
  readonly placeholders: readonly Placeholder[];
}

/** A dotted path to look up, or (not a path) text that stays as written. */
type Placeholder =
  | { readonly kind: 'path'; readonly segments: readonly Segment[] }
  | { readonly kind: 'verbatim'; readonly text: string };

interface Segment {
  readonly name: string;
  readonly isIndex: boolean;
}

// Flows render the same few templates at every step (`slots.{{context.collect}} is not null`), so each
// text is split once; the memo is bounded, and splitting is pure, so it never changes a result.
const MEMO_LIMIT = 1000;
const compiledTemplates = new Map<string, CompiledTemplate>();

function compiled(text: string): CompiledTemplate {
  let template = compiledTemplates.get(text);
  if (!template) {
    if (compiledTemplates.size >= MEMO_LIMIT) compiledTemplates.clear();
    template = compile(text);
    compiledTemplates.set(text, template);
  }
  return template;
}

function compile(text: string): CompiledTemplate {
  const source = jinjaSource(text);
  const literals: string[] = [];
  const placeholders: Placeholder[] = [];
  let position = 0;
  let trimNext = false;
  for (const match of source.matchAll(PLACEHOLDER)) {
    let literal = source.slice(position, match.index);
    if (trimNext) literal = literal.trimStart();
    if (match[1] === '-') literal = literal.trimEnd();
    literals.push(literal);
    placeholders.push(placeholderOf(match[0], match[2] ?? ''));
    trimNext = match[3] === '-';
    position = match.index + match[0].length;
  }
  const tail = source.slice(position);
  literals.push(trimNext ? tail.trimStart() : tail);
  return { literals, placeholders };
}

function jinjaSource(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

function placeholderOf(placeholder: string, expression: string): Placeholder {
  const path = expression.trim();
  if (!PATH.test(path)) return { kind: 'verbatim', text: placeholder };
  const segments = path.split('.').map((name) => ({ name, isIndex: /^\d+$/.test(name) }));
  return { kind: 'path', segments };
}

function renderPlaceholder(placeholder: Placeholder, scope: Readonly<Record<string, unknown>>): string {
  if (placeholder.kind === 'verbatim') return placeholder.text;
  const value = lookup(scope, placeholder.segments);
  return value === undefined ? '' : pyStr(value);
}

/** Jinja's `a.b` reads key b of a dict; `a.0` reads item 0 of a list or string. undefined means missing. */
function lookup(scope: Readonly<Record<string, unknown>>, path: readonly Segment[]): unknown {
  let current: unknown = scope;
  for (const segment of path) {
    current = segmentOf(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}

function segmentOf(container: unknown, { name, isIndex }: Segment): unknown {
  if (isIndex && Array.isArray(container)) return container[Number(name)] as unknown;
  if (isIndex && typeof container === 'string') return [...container][Number(name)];
  if (!isIndex && isDict(container)) return hasKey(container, name) ? container[name] : undefined;
  return undefined;
}
