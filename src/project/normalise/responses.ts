import type {
  Button,
  ResponseCondition,
  ResponseTemplate,
  ResponseVariation,
} from '../../core/domain/types.js';
import type { PathSegment } from '../load/yaml-file.js';
import { buildCondition } from './conditions.js';
import { asString, isRecord, pythonString, sourceAt } from './context.js';
import type { SourceContext } from './context.js';

export function buildResponse(
  name: string,
  raw: unknown,
  context: SourceContext,
  path: PathSegment[],
): ResponseTemplate {
  const source = sourceAt(context, path);
  const variations = Array.isArray(raw)
    ? raw.filter(isRecord).map((variation, index) => buildVariation(variation, context, [...path, index]))
    : [];
  return { name, variations, isDefault: context.isDefault, ...(source ? { source } : {}) };
}

const OPTIONAL_PAYLOADS = ['custom', 'attachment', 'elements'] as const;

function buildVariation(
  raw: Record<string, unknown>,
  context: SourceContext,
  path: PathSegment[],
): ResponseVariation {
  const source = sourceAt(context, path);
  const text = raw['text'] === undefined || raw['text'] === null ? undefined : pythonString(raw['text']);
  const image = asString(raw['image']);
  const channel = asString(raw['channel']);
  const id = asString(raw['id']);
  const condition = buildResponseCondition(raw['condition'], context, [...path, 'condition']);
  const payloads: Partial<Record<(typeof OPTIONAL_PAYLOADS)[number], unknown>> = {};
  for (const key of OPTIONAL_PAYLOADS) if (raw[key] !== undefined) payloads[key] = raw[key];
  return {
    ...(text === undefined ? {} : { text }),
    buttons: buildButtons(raw['buttons'], context, [...path, 'buttons']),
    ...(image ? { image } : {}),
    ...payloads,
    ...(raw['quick_replies'] === undefined ? {} : { quickReplies: raw['quick_replies'] }),
    ...(channel ? { channel } : {}),
    ...(condition ? { condition } : {}),
    ...(id ? { id } : {}),
    metadata: isRecord(raw['metadata']) ? raw['metadata'] : {},
    ...(source ? { source } : {}),
  };
}

function buildButtons(raw: unknown, context: SourceContext, path: PathSegment[]): Button[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).map((button, index) => {
    const source = sourceAt(context, [...path, index]);
    const { title, payload, ...extra } = button;
    return {
      title: pythonString(title ?? ''),
      payload: payload === undefined || payload === null ? '' : pythonString(payload),
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
      ...(source ? { source } : {}),
    };
  });
}

function buildResponseCondition(
  raw: unknown,
  context: SourceContext,
  path: PathSegment[],
): ResponseCondition | undefined {
  if (typeof raw === 'string' || typeof raw === 'boolean') {
    return { kind: 'predicate', condition: buildCondition(raw, context, path) };
  }
  if (!Array.isArray(raw)) return undefined;
  const slots = raw
    .filter(isRecord)
    .filter((item) => item['type'] === 'slot' && typeof item['name'] === 'string')
    .map((item) => ({ name: String(item['name']), value: item['value'] }));
  return { kind: 'slots', slots };
}
