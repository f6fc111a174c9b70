import type { EntityAnnotation } from '../../../../core/domain/nlu-data.js';
import type { Token } from '../tokens.js';

/** What the tagger predicts for a span: the entity with its role and group, if any. */
export interface EntityLabel {
  readonly entity: string;
  readonly role?: string;
  readonly group?: string;
}

/** Tag 0 is O (outside); label k has B = 2k + 1 and I = 2k + 2. */
export const OUTSIDE = 0;

export const beginTag = (label: number): number => 2 * label + 1;
export const insideTag = (label: number): number => 2 * label + 2;
export const tagCount = (labels: number): number => 2 * labels + 1;
export const labelOfTag = (tag: number): number => Math.floor((tag - 1) / 2);
export const isInside = (tag: number): boolean => tag !== OUTSIDE && tag % 2 === 0;

/** An I tag may only follow the B or I tag of the same label; everything else may follow anything. */
export function transitionAllowed(previous: number | undefined, next: number): boolean {
  if (!isInside(next)) return true;
  return previous !== undefined && previous !== OUTSIDE && labelOfTag(previous) === labelOfTag(next);
}

export function labelKey(label: EntityLabel): string {
  return JSON.stringify([label.entity, label.role ?? null, label.group ?? null]);
}

export function labelOf(annotation: EntityAnnotation): EntityLabel {
  return {
    entity: annotation.entity,
    ...(annotation.role !== undefined ? { role: annotation.role } : {}),
    ...(annotation.group !== undefined ? { group: annotation.group } : {}),
  };
}

/** BIO tags of `tokens` for the annotated spans; a token belongs to a span it overlaps. */
export function goldTags(
  tokens: readonly Token[],
  spans: readonly EntityAnnotation[],
  labelIndex: ReadonlyMap<string, number>,
): number[] {
  const tags = tokens.map(() => OUTSIDE);
  for (const span of spans) {
    const label = labelIndex.get(labelKey(labelOf(span)));
    if (label === undefined) continue;
    let first = true;
    tokens.forEach((token, index) => {
      if (token.end <= span.start || token.start >= span.end || tags[index] !== OUTSIDE) return;
      tags[index] = first ? beginTag(label) : insideTag(label);
      first = false;
    });
  }
  return tags;
}

export interface TaggedSpan {
  readonly label: number;
  readonly first: number;
  /** index of the last token, inclusive */
  readonly last: number;
}

/** Reads the spans back from a tag sequence. */
export function spansOf(tags: readonly number[]): TaggedSpan[] {
  const spans: TaggedSpan[] = [];
  let open: { label: number; first: number; last: number } | undefined;
  tags.forEach((tag, index) => {
    if (open && isInside(tag) && labelOfTag(tag) === open.label) {
      open.last = index;
      return;
    }
    if (open) spans.push(open);
    open = tag === OUTSIDE ? undefined : { label: labelOfTag(tag), first: index, last: index };
  });
  if (open) spans.push(open);
  return spans;
}
