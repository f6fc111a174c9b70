import type { NluData } from '../../../core/domain/nlu-data.js';
import type { ExtractedEntity } from './types.js';

const PROCESSOR = 'EntitySynonymMapper';

/**
 * Rasa's EntitySynonymMapper: replaces an entity's string value by its synonym value when the value
 * (compared lower-cased) is a listed surface form. Synonyms come from `synonym:` tables and from
 * annotations whose value differs from the annotated text (`[NYC](city:New York)`).
 */
export class EntitySynonymMapper {
  /** lower-cased surface form -> synonym value */
  private readonly table: ReadonlyMap<string, string>;

  constructor(options: { synonyms: Readonly<Record<string, string>> }) {
    this.table = new Map(
      Object.entries(options.synonyms).map(([surface, value]) => [surface.toLowerCase(), value]),
    );
  }

  /** lower-cased surface form -> synonym value */
  get synonyms(): Record<string, string> {
    return Object.fromEntries(this.table);
  }

  static fromNluData(nluData: NluData): EntitySynonymMapper {
    const synonyms = new Map<string, string>();
    const add = (surface: string, value: string) => {
      if (surface.trim() !== '' && surface !== value) synonyms.set(surface.toLowerCase(), value);
    };
    for (const intent of nluData.intents)
      for (const example of intent.examples)
        for (const span of example.entities) add(example.text.slice(span.start, span.end), span.value);
    for (const table of nluData.synonyms) for (const surface of table.examples) add(surface, table.name);
    return new EntitySynonymMapper({ synonyms: Object.fromEntries(synonyms) });
  }

  apply(entities: readonly ExtractedEntity[]): ExtractedEntity[] {
    return entities.map((entity) => this.map(entity));
  }

  private map(entity: ExtractedEntity): ExtractedEntity {
    if (typeof entity.value !== 'string') return entity;
    const synonym = this.table.get(entity.value.toLowerCase());
    if (synonym === undefined || synonym === entity.value) return entity;
    return { ...entity, value: synonym, processors: [...(entity.processors ?? []), PROCESSOR] };
  }
}
