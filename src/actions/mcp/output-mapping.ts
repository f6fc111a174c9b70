/**
 * `mapping.output` values are Jinja expressions over the tool's answer (`result.structuredContent.x`,
 * `result.content[0].text`, `result.structuredContent.items | length`), evaluated with nunjucks, the
 * Jinja dialect Parley renders responses with. As in Rasa, a non-empty list or map is stored as its JSON
 * text and a missing key gives null. One difference: nunjucks also gives null for a key of a missing
 * map (`result.a.b` without `a`), where Jinja fails the step. Expressions are the author's, like
 * response templates; the tool's answer is only data to them.
 */
import nunjucks from 'nunjucks';
import type { ToolOutput } from '../../core/flows/types.js';
import { toolOutputTemplate } from '../../core/mcp/tool-action.js';
import type { ToolResult } from './tool-client.js';

const environment = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
const compiled = new Map<string, nunjucks.Template>();
/** a mapped value is stored in a slot: keep it within what a tracker should hold */
export const MAX_MAPPED_VALUE_CHARS = 100_000;

export type MappedSlots =
  | { readonly ok: true; readonly slots: readonly { readonly name: string; readonly value: unknown }[] }
  | { readonly ok: false; readonly problem: string };

/** Every output of the mapping, or the first problem: then no slot of the step is set (Rasa). */
export function mapToolOutput(outputs: readonly ToolOutput[], result: ToolResult): MappedSlots {
  const scope = {
    result: { content: result.content, structuredContent: result.structuredContent, isError: result.isError },
  };
  const slots: { name: string; value: unknown }[] = [];
  for (const output of outputs) {
    let value: unknown;
    try {
      value = storedValue(templateOf(output.value).render(scope));
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n').at(-1)?.trim() : String(error);
      return { ok: false, problem: `slot '${output.slot}': '${output.value}' failed: ${reason}` };
    }
    if (typeof value === 'string' && value.length > MAX_MAPPED_VALUE_CHARS)
      return {
        ok: false,
        problem: `slot '${output.slot}': the value has more than ${MAX_MAPPED_VALUE_CHARS} characters`,
      };
    slots.push({ name: output.slot, value });
  }
  return { ok: true, slots };
}

function templateOf(expression: string): nunjucks.Template {
  let template = compiled.get(expression);
  if (!template) {
    // eager compilation: a syntax error surfaces here, not at the first call
    template = new nunjucks.Template(toolOutputTemplate(expression), environment, undefined, true);
    compiled.set(expression, template);
  }
  return template;
}

function storedValue(rendered: string): unknown {
  if (rendered === '') return null;
  const value: unknown = JSON.parse(rendered);
  if (Array.isArray(value)) return value.length > 0 ? JSON.stringify(value) : value;
  if (typeof value === 'object' && value !== null)
    return Object.keys(value).length > 0 ? JSON.stringify(value) : value;
  return value;
}
