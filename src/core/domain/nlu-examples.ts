import type { EntityAnnotation, IntentExamples, NamedExamples, NluData } from './nlu-data.js';

/**
 * Rasa's entities_parser pattern: `(entity)` or `(entity:value)`, where the entity holds no colon and the
 * value (everything after the first colon) is not empty, or a non-empty `{...}` object. Markup it does
 * not match, such as `[x](:v)` or `[x](a:)`, stays in the example as written.
 */
const ANNOTATION = /\[(?<text>[^\]]+)\](?:\((?<entity>[^:)]+)(?::(?<value>[^)]+))?\)|(?<json>\{[^}]+\}))/g;

/** `examples` is a block string of `- example` lines (Rasa also accepts a list of strings or `{text}`). */
export function exampleLines(raw: unknown): string[] {
  if (Array.isArray(raw))
    return raw.map((item) => (isRecord(item) ? String(item['text'] ?? '') : String(item)));
  if (typeof raw !== 'string') return [];
  return raw
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2).trim());
}

export interface AnnotatedExample {
  /** the example with the markup removed */
  readonly text: string;
  readonly entities: readonly EntityAnnotation[];
  /** annotations that could not be read (left in the text as plain words) */
  readonly badAnnotations: readonly string[];
}

/** Reads `[text](entity)`, `[text](entity:value)` and `[text]{"entity": ..., "role": ...}` markup into spans. */
export function parseAnnotatedExample(line: string): AnnotatedExample {
  const entities: EntityAnnotation[] = [];
  const badAnnotations: string[] = [];
  let text = '';
  let last = 0;
  for (const match of line.matchAll(ANNOTATION)) {
    const surface = match.groups?.['text'] ?? '';
    text += line.slice(last, match.index);
    const annotation = annotationOf(surface, match.groups ?? {});
    if (annotation) entities.push({ start: text.length, end: text.length + surface.length, ...annotation });
    else badAnnotations.push(match[0]);
    text += surface;
    last = (match.index ?? 0) + match[0].length;
  }
  text += line.slice(last);
  return { text, entities, badAnnotations };
}

/** NLU training data from a parsed `nlu:` document, without source positions (shipped or generated data). */
export function nluDataFromDocument(document: unknown): NluData {
  const items = isRecord(document) && Array.isArray(document['nlu']) ? document['nlu'] : [];
  const intents = new Map<string, { intent: string; examples: IntentExamples['examples'][number][] }>();
  const named = {
    synonym: [] as NamedExamples[],
    regex: [] as NamedExamples[],
    lookup: [] as NamedExamples[],
  };
  for (const item of items) {
    if (!isRecord(item)) continue;
    const lines = exampleLines(item['examples']);
    if (typeof item['intent'] === 'string') {
      const entry = intents.get(item['intent']) ?? { intent: item['intent'], examples: [] };
      intents.set(item['intent'], entry);
      for (const line of lines) {
        const { text, entities } = parseAnnotatedExample(line);
        entry.examples.push({ text, entities });
      }
    }
    for (const kind of ['synonym', 'regex', 'lookup'] as const) {
      const name = item[kind];
      if (typeof name === 'string') named[kind].push({ name, examples: lines });
    }
  }
  return {
    intents: [...intents.values()],
    synonyms: named.synonym,
    regexes: named.regex,
    lookups: named.lookup,
  };
}

function annotationOf(surface: string, { entity, value, json }: Record<string, string | undefined>) {
  if (entity !== undefined) return { entity, value: value ?? surface };
  try {
    const parsed: unknown = JSON.parse(json ?? '');
    if (!isRecord(parsed) || typeof parsed['entity'] !== 'string') return undefined;
    const role = typeof parsed['role'] === 'string' ? parsed['role'] : undefined;
    const group = typeof parsed['group'] === 'string' ? parsed['group'] : undefined;
    return {
      entity: parsed['entity'],
      value: typeof parsed['value'] === 'string' ? parsed['value'] : surface,
      ...(role ? { role } : {}),
      ...(group ? { group } : {}),
    };
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
