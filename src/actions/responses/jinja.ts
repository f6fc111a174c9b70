import nunjucks from 'nunjucks';
import type { RenderedString } from './warnings.js';

// Responses with `metadata: {template: jinja}` (Rasa's default patterns use it for
// `{{ context.canceled_name }}` and `{{ value }}`) are rendered with nunjucks, a Jinja dialect:
// - scope: Rasa's `{context, ...slots, ...kwargs}`, plus `slots` so `{{ slots.name }}` works too;
// - no autoescaping, an undefined name renders as "", and one trailing newline is dropped and line
//   endings are normalised to "\n", as Jinja does by default;
// - any error (syntax, calling something undefined, ...) returns the text as written with a warning,
//   like Rasa does for Jinja's UndefinedError.
// Known differences from Jinja, which prints Python's str(): nunjucks prints None/null as "",
// booleans as "true"/"false", lists as "a,b" and 50.0 as "50". The built-in responses only print
// strings; a project that prints other values can format them explicitly in the template.

const environment = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });

export interface JinjaScopeInput {
  readonly slots: Readonly<Record<string, unknown>>;
  readonly context: Readonly<Record<string, unknown>>;
  readonly kwargs?: Readonly<Record<string, unknown>>;
}

export function jinjaScope(input: JinjaScopeInput): Readonly<Record<string, unknown>> {
  return Object.fromEntries(
    [
      ['slots', input.slots],
      ['context', input.context],
      ...Object.entries(input.slots),
      ...Object.entries(input.kwargs ?? {}),
    ].map(([name, value]) => [name, pythonDicts(value)]),
  );
}

/**
 * Rasa's templates call Python dict methods (`context.corrected_slots.keys()`); nunjucks calls functions
 * found on objects, so every plain object gets keys/values/items/get as hidden (non-enumerable) methods.
 */
function pythonDicts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pythonDicts);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, pythonDicts(item)]),
  );
  const methods = {
    keys: () => Object.keys(copy),
    values: () => Object.values(copy),
    items: () => Object.entries(copy),
    get: (key: string, fallback: unknown = null) => (key in copy ? copy[key] : fallback),
  };
  for (const [name, method] of Object.entries(methods)) {
    if (!(name in copy)) Object.defineProperty(copy, name, { value: method, enumerable: false });
  }
  return copy;
}

export function renderJinja(
  text: string,
  scope: Readonly<Record<string, unknown>>,
  path = 'text',
): RenderedString {
  try {
    const template = new nunjucks.Template(jinjaSource(text), environment, undefined, true);
    return { text: template.render(scope), warnings: [] };
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/\s+/g, ' ').trim() : String(error);
    return {
      text,
      warnings: [
        {
          code: 'RESPONSE_JINJA_FAILED',
          path,
          message: `The Jinja template did not render (${reason}); it is sent as written.`,
        },
      ],
    };
  }
}

function jinjaSource(text: string): string {
  return text.replace(/\r\n|\r/g, '\n').replace(/\n$/, '');
}
