/**
 * Rasa's MemoizationPolicy over the project's stories: the last `max_history` dialogue states before
 * each action of a story are remembered with that action, and the action is predicted when the
 * conversation's last states are exactly those (a key two stories give different actions is forgotten).
 * As Rasa's AugmentedMemoizationPolicy, a conversation also matches with fewer of its latest states,
 * and a story also matches from its first message on when the conversation did not start with it.
 */
import type { Domain } from '../domain/types.js';
import { influences, initialFeatures, statesBeforeActions, stateKey } from './states.js';
import type { DialogueState } from './states.js';
import { eventsOfSteps, storyPaths } from './stitch.js';
import type { Story } from './types.js';

export const DEFAULT_MAX_HISTORY = 5;
const AMBIGUOUS = '';

export class MemoizationPolicy {
  private readonly lookup = new Map<string, string>();
  private readonly maxHistory: number;

  constructor(stories: readonly Story[], domain: Domain, maxHistory = DEFAULT_MAX_HISTORY) {
    this.maxHistory = Math.max(1, maxHistory);
    const options = { domain, initial: initialFeatures(domain), featurized: influences(domain) };
    for (const steps of storyPaths(stories)) {
      const { samples } = statesBeforeActions(eventsOfSteps(steps), options);
      for (const sample of samples) {
        const window = sample.states.slice(-this.maxHistory);
        this.remember(window, sample.action);
        // the story's start state dropped: the story may begin anywhere in a conversation
        if (sample.states.length <= this.maxHistory && window.length > 1)
          this.remember(window.slice(1), sample.action);
      }
    }
  }

  predict(states: readonly DialogueState[]): string | undefined {
    for (let length = Math.min(this.maxHistory, states.length); length >= 1; length -= 1) {
      const action = this.lookup.get(keyOf(states.slice(-length)));
      if (action) return action;
    }
    return undefined;
  }

  private remember(states: readonly DialogueState[], action: string): void {
    const key = keyOf(states);
    const known = this.lookup.get(key);
    this.lookup.set(key, known === undefined || known === action ? action : AMBIGUOUS);
  }
}

function keyOf(states: readonly DialogueState[]): string {
  return states.map(stateKey).join('\n');
}
