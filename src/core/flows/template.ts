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
  const source = jinjaSource(text);
  let output = '';
  let position = 0;
  let trimNext = false;
  for (const match of source.matchAll(PLACEHOLDER)) {
    let literal = source.slice(position, match.index);
    if (trimNext) literal = literal.trimStart();
    if (match[1] === '-') literal = literal.trimEnd();
    output += literal + renderPlaceholder(match[0], match[2] ?? '', scope);
    trimNext = match[3] === '-';
    position = match.index + match[0].length;
  }
  const tail = source.slice(position);
  return output + (trimNext ? tail.trimStart() : tail);
}

function jinjaSource(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

function renderPlaceholder(
  placeholder: string,
  expression: string,
  scope: Readonly<Record<string, unknown>>,
): string {
  const path = expression.trim();
  if (!PATH.test(path)) return placeholder;
  const value = lookup(scope, path.split('.'));
  return value === undefined ? '' : pyStr(value);
}

/** Jinja's `a.b` reads key b of a dict; `a.0` reads item 0 of a list or string. undefined means missing. */
function lookup(scope: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
  let current: unknown = scope;
  for (const segment of path) {
    current = segmentOf(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}

function segmentOf(container: unknown, segment: string): unknown {
  const isIndex = /^\d+$/.test(segment);
  if (isIndex && Array.isArray(container)) return container[Number(segment)] as unknown;
  if (isIndex && typeof container === 'string') return [...container][Number(segment)];
  if (!isIndex && isDict(container)) return hasKey(container, segment) ? container[segment] : undefined;
  return undefined;
}
