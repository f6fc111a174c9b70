/**
 * Reads Rasa's `stories:` and `rules:` into the policies' DialogueData. A step Parley cannot read is
 * reported (STORIES_SCHEMA, at its position) and left out; the rest of the story is kept.
 */
import type {
  DialogueData,
  Rule,
  SlotWasSet,
  Story,
  StoryEntity,
  StoryStep,
} from '../../core/dialogue/types.js';
import type { PathSegment } from '../load/yaml-file.js';
import type { Section } from '../load/read-project.js';
import { asBoolean, isRecord, sourceAt } from './context.js';
import type { SourceContext } from './context.js';

export interface StoriesPart {
  readonly section: Section;
  readonly context: SourceContext;
}

export function buildDialogueData(
  stories: readonly StoriesPart[],
  rules: readonly StoriesPart[],
): DialogueData {
  return {
    stories: stories.flatMap(({ section, context }) =>
      items(section, 'stories').map(({ item, index }) => story(item, index, context)),
    ),
    rules: rules.flatMap(({ section, context }) =>
      items(section, 'rules').map(({ item, index }) => rule(item, index, context)),
    ),
  };
}

function items(section: Section, key: string): { item: Record<string, unknown>; index: number }[] {
  const list = Array.isArray(section.data[key]) ? (section.data[key] as unknown[]) : [];
  return list.flatMap((item, index) => (isRecord(item) ? [{ item, index }] : []));
}

function story(item: Record<string, unknown>, index: number, context: SourceContext): Story {
  const path = ['stories', index];
  const source = sourceAt(context, path);
  return {
    name: String(item['story'] ?? `story ${index + 1}`),
    steps: steps(item['steps'], [...path, 'steps'], context),
    ...(source ? { source } : {}),
  };
}

function rule(item: Record<string, unknown>, index: number, context: SourceContext): Rule {
  const path = ['rules', index];
  const source = sourceAt(context, path);
  return {
    name: String(item['rule'] ?? `rule ${index + 1}`),
    steps: steps(item['steps'], [...path, 'steps'], context),
    condition: steps(item['condition'], [...path, 'condition'], context),
    conversationStart: asBoolean(item['conversation_start'], false),
    waitForUserInput: asBoolean(item['wait_for_user_input'], true),
    ...(source ? { source } : {}),
  };
}

function steps(raw: unknown, path: PathSegment[], context: SourceContext): StoryStep[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item, index) => {
    const step = readStep(item);
    if (step) return [step];
    context.diagnostics.at(
      'STORIES_SCHEMA',
      sourceAt(context, [...path, index]),
      `This step is not one Parley reads (intent, action, slot_was_set, active_loop, checkpoint or or): ${JSON.stringify(item)}. It is left out.`,
    );
    return [];
  });
}

function readStep(item: unknown): StoryStep | undefined {
  if (!isRecord(item)) return undefined;
  if (typeof item['intent'] === 'string')
    return { kind: 'intent', intent: item['intent'], entities: entities(item['entities']) };
  if (typeof item['action'] === 'string') return { kind: 'action', action: item['action'] };
  if ('slot_was_set' in item) return slotStep(item['slot_was_set']);
  if ('active_loop' in item)
    return {
      kind: 'active_loop',
      loop: typeof item['active_loop'] === 'string' ? item['active_loop'] : null,
    };
  if (typeof item['checkpoint'] === 'string') return { kind: 'checkpoint', name: item['checkpoint'] };
  if (Array.isArray(item['or'])) {
    const alternatives = item['or'].map(readStep);
    if (alternatives.every((step): step is StoryStep => step !== undefined && step.kind !== 'or'))
      return { kind: 'or', alternatives };
  }
  return undefined;
}

function slotStep(raw: unknown): StoryStep | undefined {
  const list = Array.isArray(raw) ? raw : [raw];
  const slots: SlotWasSet[] = [];
  for (const entry of list) {
    if (typeof entry === 'string') slots.push({ name: entry, value: undefined });
    else if (isRecord(entry)) for (const [name, value] of Object.entries(entry)) slots.push({ name, value });
    else return undefined;
  }
  return { kind: 'slots', slots };
}

/** `entities: [city]`, `entities: [{city: Porto}]` or `entities: [{entity: city, value: Porto}]`. */
function entities(raw: unknown): StoryEntity[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry): StoryEntity[] => {
    if (typeof entry === 'string') return [{ entity: entry }];
    if (!isRecord(entry)) return [];
    if (typeof entry['entity'] === 'string') return [{ entity: entry['entity'], value: entry['value'] }];
    return Object.entries(entry).map(([entity, value]) => ({ entity, value }));
  });
}
