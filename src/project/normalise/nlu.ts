import type { EntityAnnotation, IntentExamples, NamedExamples, NluData } from '../../core/domain/nlu-data.js';
import type { SourceRef } from '../../core/errors.js';
import { lazyItemPositionOf } from '../load/yaml-file.js';
import type { PathSegment } from '../load/yaml-file.js';
import type { Section } from '../load/read-project.js';
import { isRecord, sourceAt } from './context.js';
import type { SourceContext } from './context.js';

const ANNOTATION = /\[(?<text>[^\]]+)\](?:\((?<short>[^)]+)\)|(?<json>\{[^}]*\}))/g;

export interface NluPart {
  readonly section: Section;
  readonly context: SourceContext;
}

export function buildNluData(parts: readonly NluPart[]): NluData {
  const intents = new Map<string, { intent: string; examples: IntentExamples['examples'][number][] }>();
  const synonyms: NamedExamples[] = [];
  const regexes: NamedExamples[] = [];
  const lookups: NamedExamples[] = [];
  for (const { section, context } of parts) {
    const items = Array.isArray(section.data['nlu']) ? section.data['nlu'] : [];
    items.forEach((item, index) => {
      if (!isRecord(item)) return;
      const path = ['nlu', index];
      const examples = exampleLines(item['examples']);
      if (typeof item['intent'] === 'string') {
        const entry = intents.get(item['intent']) ?? { intent: item['intent'], examples: [] };
        intents.set(item['intent'], entry);
        examples.forEach((line, at) =>
          entry.examples.push(parseExample(line, context, exampleSource(context, [...path, 'examples'], at))),
        );
      } else if (typeof item['synonym'] === 'string')
        synonyms.push(named(item['synonym'], examples, context, path));
      else if (typeof item['regex'] === 'string') regexes.push(named(item['regex'], examples, context, path));
      else if (typeof item['lookup'] === 'string')
        lookups.push(named(item['lookup'], examples, context, path));
    });
  }
  return { intents: [...intents.values()], synonyms, regexes, lookups };
}

function named(name: string, examples: string[], context: SourceContext, path: PathSegment[]): NamedExamples {
  const source = sourceAt(context, path);
  return { name, examples, ...(source ? { source } : {}) };
}

/** `examples` is a block string of `- example` lines (Rasa also accepts a list of strings). */
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

/** Where the `index`-th example of an `examples` value is: its own line, not the `examples:` key. */
function exampleSource(context: SourceContext, path: PathSegment[], index: number): SourceRef | undefined {
  return context.isDefault ? undefined : lazyItemPositionOf(context.file, path, index);
}

/** Strips `[text](entity)`, `[text](entity:value)` and `[text]{"entity": ...}` markup into spans. */
export function parseExample(line: string, context: SourceContext, source: SourceRef | undefined) {
  const entities: EntityAnnotation[] = [];
  let text = '';
  let last = 0;
  for (const match of line.matchAll(ANNOTATION)) {
    const surface = match.groups?.['text'] ?? '';
    text += line.slice(last, match.index);
    const annotation = annotationOf(surface, match.groups?.['short'], match.groups?.['json']);
    if (annotation) entities.push({ start: text.length, end: text.length + surface.length, ...annotation });
    else
      context.diagnostics.at(
        'NLU_BAD_ANNOTATION',
        source,
        `Cannot read the entity annotation '${match[0]}' in '${line}'.`,
      );
    text += surface;
    last = (match.index ?? 0) + match[0].length;
  }
  text += line.slice(last);
  return { text, entities, ...(source ? { source } : {}) };
}

function annotationOf(surface: string, short: string | undefined, json: string | undefined) {
  if (short !== undefined) {
    const [entity, value] = short.split(':');
    return entity ? { entity, value: value ?? surface } : undefined;
  }
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
