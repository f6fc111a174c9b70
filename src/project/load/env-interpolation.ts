import { EVENT_ID, parseEvents, SCALAR_STYLE_PLAIN } from 'js-yaml';
import type { ProjectDiagnostics } from '../diagnostics.js';
import { ENV_REFERENCE } from './env-reference.js';
import { positionalYaml } from './yaml-file.js';
import type { YamlFile } from './yaml-file.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Expands `${VAR}` and `$VAR` in plain scalars like Python's os.path.expandvars, and reports a scalar that
 * still holds an unset reference afterwards, as Rasa refuses to start in that case.
 */
export function interpolateEnvironment(
  file: YamlFile,
  env: Environment,
  diagnostics: ProjectDiagnostics,
): void {
  if (!(file.envReferences?.plain ?? hasPlainReference(file.text))) return;
  const { isScalar, Scalar, visit } = positionalYaml();
  let changed = false;
  visit(file.document, {
    Scalar(_key, node) {
      if (!isScalar(node) || node.type !== Scalar.PLAIN || typeof node.value !== 'string') return;
      if (!ENV_REFERENCE.test(node.value)) return;
      const { text, missing } = expandVariables(node.value, env);
      if (missing.length > 0) {
        const { line, col } = file.lineCounter.linePos(node.range?.[0] ?? 0);
        diagnostics.add({
          code: 'ENV_VAR_UNSET',
          file: file.path,
          line,
          column: col,
          message: `Environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not set (in '${node.value}').`,
        });
        return;
      }
      node.value = text;
      changed = true;
    },
  });
  if (changed) file.data = file.document.toJS({ maxAliasCount: 1000 });
}

export function expandVariables(value: string, env: Environment): { text: string; missing: string[] } {
  const missing: string[] = [];
  const text = value.replace(
    /\$(?:\{([^}]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (whole, braced?: string, bare?: string) => {
      const name = braced ?? bare ?? '';
      const resolved = env[name];
      if (resolved === undefined) {
        missing.push(name);
        return whole;
      }
      return resolved;
    },
  );
  return { text, missing };
}

/** A quick scan of the parser events, so files whose `${` are all quoted skip the positional parse. */
function hasPlainReference(text: string): boolean {
  if (!text.includes('${')) return false;
  return parseEvents(text, {}).some(
    (event) =>
      event.type === EVENT_ID.SCALAR &&
      event.style === SCALAR_STYLE_PLAIN &&
      ENV_REFERENCE.test(text.slice(event.valueStart, event.valueEnd)),
  );
}
