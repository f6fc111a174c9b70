import type {
  Button,
  ResponseCondition,
  ResponseTemplate,
  ResponseVariation,
} from '../../../src/core/domain/types.js';
import { parseCondition } from '../../../src/core/flows/conditions/index.js';
import { hasTemplate } from '../../../src/core/flows/template.js';

type VariationFields = Omit<Partial<ResponseVariation>, 'buttons'> & { buttons?: readonly Button[] };

export function variation(fields: VariationFields = {}): ResponseVariation {
  return { buttons: [], metadata: {}, ...fields };
}

export function response(name: string, ...variations: ResponseVariation[]): ResponseTemplate {
  return { name, variations, isDefault: false };
}

/** A predicate condition as the project loader builds it: parsed unless it has Jinja placeholders. */
export function predicate(text: string): ResponseCondition {
  if (hasTemplate(text)) return { kind: 'predicate', condition: { text, ast: undefined, isTemplate: true } };
  const parsed = parseCondition(text);
  return {
    kind: 'predicate',
    condition: { text, ast: parsed.ok ? parsed.ast : undefined, isTemplate: false },
  };
}

/** The legacy list form `[{type: slot, name, value}]`. */
export function slotCondition(slots: Record<string, unknown>): ResponseCondition {
  return { kind: 'slots', slots: Object.entries(slots).map(([name, value]) => ({ name, value })) };
}

export function button(title: string, payload: string): Button {
  return { title, payload };
}

/** A seeded PRNG (mulberry32), so "random" choices replay exactly. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Always returns the same number: picks a fixed position among the candidates. */
export function fixed(value: number): () => number {
  return () => value;
}
