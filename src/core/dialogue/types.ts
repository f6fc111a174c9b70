/**
 * Rasa's rules and stories (data/*.yml `rules:` / `stories:`), normalised: the training data of the
 * NLU-based dialogue policies that answer in coexistence when a session is routed away from CALM.
 */
import type { SourceRef } from '../errors.js';

export interface StoryEntity {
  readonly entity: string;
  /** absent: any value (Rasa featurizes entity names only) */
  readonly value?: unknown;
}

export interface SlotWasSet {
  readonly name: string;
  /** the value the step names; `undefined` when it names the slot only (any value) */
  readonly value: unknown;
}

export type StoryStep =
  | { readonly kind: 'intent'; readonly intent: string; readonly entities: readonly StoryEntity[] }
  | { readonly kind: 'action'; readonly action: string }
  | { readonly kind: 'slots'; readonly slots: readonly SlotWasSet[] }
  | { readonly kind: 'active_loop'; readonly loop: string | null }
  | { readonly kind: 'checkpoint'; readonly name: string }
  /** one of several user messages or slot events (Rasa's `or`) */
  | { readonly kind: 'or'; readonly alternatives: readonly StoryStep[] };

export interface Story {
  readonly name: string;
  readonly steps: readonly StoryStep[];
  readonly source?: SourceRef;
}

export interface Rule {
  readonly name: string;
  readonly steps: readonly StoryStep[];
  /** slot_was_set / active_loop steps that must hold when the rule starts */
  readonly condition: readonly StoryStep[];
  /** the rule matches only at the beginning of a conversation */
  readonly conversationStart: boolean;
  /** false: the rule does not end by listening (Rasa's `wait_for_user_input: false`) */
  readonly waitForUserInput: boolean;
  readonly source?: SourceRef;
}

export interface DialogueData {
  readonly stories: readonly Story[];
  readonly rules: readonly Rule[];
}
