/**
 * Stories as the policies learn them: every `or` expanded into its alternatives, and stories that end
 * in a checkpoint continued by the stories that start with it (Rasa's story graph), with a bound on
 * how many stories this may make.
 */
import type { DialogueEvent } from './dialogue-events.js';
import { userEvent, withListens } from './dialogue-events.js';
import type { Story, StoryStep } from './types.js';

const MAX_STORIES = 500;
const MAX_JOINS = 4;

/** The step sequences of the stories, each from a conversation's start (no leading checkpoint). */
export function storyPaths(stories: readonly Story[]): StoryStep[][] {
  const parts = stories.map((story) => split(story.steps));
  const paths: StoryStep[][] = [];
  const extend = (steps: readonly StoryStep[], ends: readonly string[], joins: number): void => {
    if (paths.length >= MAX_STORIES) return;
    const next =
      joins < MAX_JOINS ? parts.filter((part) => part.starts.some((name) => ends.includes(name))) : [];
    if (ends.length === 0 || next.length === 0) paths.push([...steps]);
    for (const part of next) extend([...steps, ...part.body], part.ends, joins + 1);
  };
  for (const part of parts) if (part.starts.length === 0) extend(part.body, part.ends, 0);
  return paths.flatMap(expandOr).slice(0, MAX_STORIES);
}

/** A story's leading checkpoints (where it continues another), its steps, and its trailing checkpoints. */
function split(steps: readonly StoryStep[]): { starts: string[]; body: StoryStep[]; ends: string[] } {
  const isStep = (step: StoryStep): boolean => step.kind !== 'checkpoint';
  const names = (part: readonly StoryStep[]): string[] =>
    part.flatMap((step) => (step.kind === 'checkpoint' ? [step.name] : []));
  const first = steps.findIndex(isStep);
  if (first === -1) return { starts: names(steps), body: [], ends: [] };
  return {
    starts: names(steps.slice(0, first)),
    // a checkpoint inside a story joins its two halves, which is the story as it is
    body: steps.filter(isStep),
    ends: names(steps.slice(steps.findLastIndex(isStep) + 1)),
  };
}

/** One sequence per choice of alternative in each `or` step. */
export function expandOr(steps: readonly StoryStep[]): StoryStep[][] {
  let variants: StoryStep[][] = [[]];
  for (const step of steps) {
    const choices = step.kind === 'or' ? step.alternatives : [step];
    variants = variants.flatMap((variant) => choices.map((choice) => [...variant, choice]));
    if (variants.length > MAX_STORIES) variants = variants.slice(0, MAX_STORIES);
  }
  return variants;
}

/** The dialogue events of a story's steps (a user step follows an action_listen). */
export function eventsOfSteps(steps: readonly StoryStep[]): DialogueEvent[] {
  const events: DialogueEvent[] = [];
  for (const step of steps) {
    switch (step.kind) {
      case 'intent':
        events.push(userEvent(step.intent, step.entities));
        break;
      case 'action':
        events.push({ type: 'action', name: step.action });
        break;
      case 'slots':
        for (const slot of step.slots)
          events.push({ type: 'slot', name: slot.name, value: slot.value === undefined ? true : slot.value });
        break;
      case 'active_loop':
        events.push({ type: 'loop', name: step.loop });
        break;
      default:
        break;
    }
  }
  return withListens(events);
}
