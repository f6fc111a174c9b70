import { quotedReferences } from '../../load/quoted-env-references.js';
import type { Section } from '../../load/read-project.js';
import type { ValidationRule } from '../rule.js';

/**
 * A quoted `"${VAR}"` in endpoints.yml or credentials.yml stays as written, as in Rasa, which expands only
 * unquoted values; said once per value, with how to write it. Model settings under `model_groups` are
 * and `mcp_servers` are exempt: Parley (like Rasa's LLM and MCP clients) expands `${VAR}` there when it
 * uses them.
 */
const EXPANDED_WHEN_USED: ReadonlySet<string> = new Set(['model_groups', 'mcp_servers']);

export const envReferencesRule: ValidationRule = {
  name: 'env-references',
  check(context) {
    const { endpoints, credentials } = context.project.raw;
    for (const section of [endpoints, credentials]) {
      if (!section) continue;
      for (const reference of quotedReferences(section.file)) {
        if (EXPANDED_WHEN_USED.has(reference.keys[0] ?? '')) continue;
        context.report('ENV_VAR_QUOTED', reference.where, message(section, reference.keys, reference.value));
      }
    }
  },
};

function message(section: Section, keys: readonly string[], value: string): string {
  const file = section.file.path.split(/[\\/]/).pop() ?? section.file.path;
  const key = keys[keys.length - 1] ?? 'value';
  return (
    `${file}: '${value}' at ${keys.join('.') || 'the top level'} is quoted, so it is not interpolated ` +
    `and is used as written; write \`${key}: ${value}\` without quotes to read the environment variable.`
  );
}
