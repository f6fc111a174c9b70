import { EVENT_ID, parseEvents, SCALAR_STYLE_PLAIN } from 'js-yaml';
import type { SourceRef } from '../../core/errors.js';
import { ENV_REFERENCE } from './env-reference.js';
import { positionalYaml } from './yaml-file.js';
import type { YamlFile } from './yaml-file.js';

export interface QuotedReference {
  readonly where: SourceRef;
  readonly value: string;
  /** the keys from the top of the file down to the value */
  readonly keys: readonly string[];
}

/**
 * Values that look like `${VAR}` references but are quoted (or block scalars): Rasa's YAML loader
 * expands only plain scalars, so these stay as written, in Rasa as in Parley.
 */
export function quotedReferences(file: YamlFile): QuotedReference[] {
  if (!(file.envReferences?.quoted ?? hasQuotedReference(file.text))) return [];
  const { isPair, isScalar, Scalar, visit } = positionalYaml();
  const found: QuotedReference[] = [];
  visit(file.document, {
    Scalar(key, node, path) {
      if (key === 'key' || !isScalar(node) || node.type === Scalar.PLAIN) return;
      if (typeof node.value !== 'string' || !ENV_REFERENCE.test(node.value)) return;
      const keys = path.flatMap((ancestor) =>
        isPair(ancestor) && isScalar(ancestor.key) ? [String(ancestor.key.value)] : [],
      );
      const { line, col } = file.lineCounter.linePos(node.range?.[0] ?? 0);
      found.push({ where: { file: file.path, line, column: col }, value: node.value, keys });
    },
  });
  return found;
}

/** A quick scan of the parser events, so that most files skip the positional parse. */
function hasQuotedReference(text: string): boolean {
  if (!text.includes('${')) return false;
  return parseEvents(text, {}).some(
    (event) =>
      event.type === EVENT_ID.SCALAR &&
      event.style !== SCALAR_STYLE_PLAIN &&
      ENV_REFERENCE.test(text.slice(event.valueStart, event.valueEnd)),
  );
}
