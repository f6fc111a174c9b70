import type { EntityAnnotation, IntentExamples, NamedExamples, NluData } from './nlu-data.js';

/**
 * Rasa's entities_parser pattern: `(entity)` or `(entity:value)`, where the entity holds no colon and the
 * value (everything after the first colon) is not empty; a non-empty `{...}` object; or a `[...]` list of
 * objects, several entities on one span. Markup it does not match, such as `[x](:v)` or `[x](a:)`, stays
 * in the example as written.
 */
const ANNOTATION =
  /\[(?<text>[^\]]+)\](?:\((?<entity>[^:)]+)(?::(?<value>[^)]+))?\)|(?<json>\{[^}]+\})|\[(?<list>.*?)\])/g;
const OBJECT_IN_LIST = /\{[^}]+\}/g;

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

/**
 * Reads `[text](entity)`, `[text](entity:value)`, `[text]{"entity": ..., "role": ...}` and
 * `[text][{"entity": ...}, {"entity": ...}]` markup into spans.
 */
export function parseAnnotatedExample(line: string): AnnotatedExample {
  const entities: EntityAnnotation[] = [];
  const badAnnotations: string[] = [];
  let text = '';
  let last = 0;
  for (const match of line.matchAll(ANNOTATION)) {
    const surface = match.groups?.['text'] ?? '';
    text += line.slice(last, match.index);
    const annotations = annotationsOf(surface, match.groups ?? {});
    const span = { start: text.length, end: text.length + surface.length };
    if (annotations) entities.push(...annotations.map((annotation) => ({ ...span, ...annotation })));
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

type Annotation = Omit<EntityAnnotation, 'start' | 'end'>;

function annotationsOf(
  surface: string,
  groups: Record<string, string | undefined>,
): Annotation[] | undefined {
  const { entity, value, json, list = '' } = groups;
  if (entity !== undefined) return [{ entity, value: value ?? surface }];
  const objects = json === undefined ? [...list.matchAll(OBJECT_IN_LIST)].map(([object]) => object) : [json];
  const annotations = objects.map((object) => objectAnnotation(surface, object));
  return annotations.every((annotation) => annotation !== undefined) ? annotations : undefined;
}

function objectAnnotation(surface: string, json: string): Annotation | undefined {
  try {
    const parsed: unknown = JSON.parse(json);
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
