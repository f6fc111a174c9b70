import type { IntentExamples, NamedExamples, NluData } from '../../core/domain/nlu-data.js';
import { exampleLines, parseAnnotatedExample } from '../../core/domain/nlu-examples.js';
import type { SourceRef } from '../../core/errors.js';
import { lazyItemPositionOf } from '../load/yaml-file.js';
import type { PathSegment } from '../load/yaml-file.js';
import type { Section } from '../load/read-project.js';
import { isRecord, sourceAt } from './context.js';
import type { SourceContext } from './context.js';

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

export { exampleLines };

/** Where the `index`-th example of an `examples` value is: its own line, not the `examples:` key. */
function exampleSource(context: SourceContext, path: PathSegment[], index: number): SourceRef | undefined {
  return context.isDefault ? undefined : lazyItemPositionOf(context.file, path, index);
}

/** An annotated example, with every unreadable annotation reported. */
export function parseExample(line: string, context: SourceContext, source: SourceRef | undefined) {
  const { text, entities, badAnnotations } = parseAnnotatedExample(line);
  for (const annotation of badAnnotations) {
    context.diagnostics.at(
      'NLU_BAD_ANNOTATION',
      source,
      `Cannot read the entity annotation '${annotation}' in '${line}'.`,
    );
  }
  return { text, entities, ...(source ? { source } : {}) };
}
