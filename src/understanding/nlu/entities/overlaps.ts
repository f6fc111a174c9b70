import { EXTRACTOR_PRIORITY } from './types.js';
import type { ExtractedEntity } from './types.js';

/**
 * Keeps non-overlapping entities: the longest span first; between equally long spans the extractor
 * priority (regex/lookup, then trained, then built-in), then the earlier start. Returned in text order.
 */
export function resolveOverlaps(candidates: readonly ExtractedEntity[]): ExtractedEntity[] {
  const ranked = candidates
    .map((entity, index) => ({ entity, index }))
    .sort(
      (a, b) =>
        length(b.entity) - length(a.entity) ||
        EXTRACTOR_PRIORITY[a.entity.extractor] - EXTRACTOR_PRIORITY[b.entity.extractor] ||
        a.entity.start - b.entity.start ||
        a.index - b.index,
    );
  const kept: ExtractedEntity[] = [];
  for (const { entity } of ranked) {
    if (length(entity) > 0 && !kept.some((other) => overlaps(entity, other))) kept.push(entity);
  }
  return kept.sort((a, b) => a.start - b.start);
}

function length(entity: ExtractedEntity): number {
  return entity.end - entity.start;
}

function overlaps(a: ExtractedEntity, b: ExtractedEntity): boolean {
  return a.start < b.end && b.start < a.end;
}
