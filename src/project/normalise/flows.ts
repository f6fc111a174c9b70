import type { Flow, NluTrigger } from '../../core/flows/types.js';
import type { Section } from '../load/read-project.js';
import { buildCondition } from './conditions.js';
import { asBoolean, asString, asStringList, isRecord, sourceAt } from './context.js';
import type { SourceContext } from './context.js';
import { buildSteps } from './steps.js';

/**
 * Builds the flows of one flows file. Duplicates across files are left to the validator; a bad flow id
 * or an empty step list is reported by the schema check (see `x-codes` in schemas/flows.ts).
 */
export function buildFlows(section: Section, context: SourceContext): Flow[] {
  const flows = section.data['flows'];
  if (!isRecord(flows)) return [];
  return Object.entries(flows).flatMap(([id, raw]) => {
    if (!isRecord(raw)) return [];
    return [buildFlow(id, raw, context)];
  });
}

function buildFlow(id: string, raw: Record<string, unknown>, context: SourceContext): Flow {
  const path = ['flows', id];
  const source = sourceAt(context, path);
  const rawSteps = Array.isArray(raw['steps']) ? raw['steps'] : [];
  const steps = buildSteps(id, rawSteps, context, [...path, 'steps']);
  const guard = 'if' in raw ? buildCondition(raw['if'], context, [...path, 'if'], { flowId: id }) : undefined;
  return {
    id,
    name: asString(raw['name']) ?? id.replace(/[_-]/g, ' '),
    description: asString(raw['description']) ?? '',
    guard,
    alwaysIncludeInPrompt: asBoolean(raw['always_include_in_prompt'], false),
    nluTriggers: nluTriggers(raw['nlu_trigger']),
    persistedSlots: asStringList(raw['persisted_slots']),
    runPatternCompleted: asBoolean(raw['run_pattern_completed'], true),
    steps,
    firstStepId: steps[0]?.id,
    metadata: isRecord(raw['metadata']) ? raw['metadata'] : {},
    isDefault: context.isDefault,
    ...(source ? { source } : {}),
  };
}

function nluTriggers(raw: unknown): NluTrigger[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).flatMap((item) => {
    const intent = item['intent'];
    if (typeof intent === 'string') return [{ intent, confidenceThreshold: 0 }];
    if (isRecord(intent) && typeof intent['name'] === 'string') {
      const threshold = intent['confidence_threshold'];
      return [{ intent: intent['name'], confidenceThreshold: typeof threshold === 'number' ? threshold : 0 }];
    }
    return [];
  });
}
