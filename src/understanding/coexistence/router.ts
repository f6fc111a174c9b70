/**
 * Rasa's coexistence routers decide, once per routing session, whether CALM or the NLU-based system
 * answers. Their config (`calm_entry`, `nlu_entry`) is read here, with every problem reported at once.
 */
import type { Command } from '../../core/commands/types.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import type { ClassifiedMessage } from './nlu-adapter.js';

/** The router's commands (a SetSlot of the routing slot, or none), and whether it issued Rasa's Noop. */
export interface RouteDecision {
  readonly commands: readonly Command[];
  readonly noop: boolean;
}

export interface RouterInput {
  readonly text: string;
  readonly state: TrackerState;
  readonly engine: EngineContext;
  readonly message: ClassifiedMessage;
}

export interface CoexistenceRouter {
  readonly name: 'IntentBasedRouter' | 'LLMBasedRouter';
  route(input: RouterInput): Promise<RouteDecision>;
}

export const TO_CALM: RouteDecision = { commands: [], noop: false };
export const NLU_THIS_TURN: RouteDecision = { commands: [], noop: true };

export const ROUTER_NAMES = ['IntentBasedRouter', 'LLMBasedRouter'] as const;

export interface EntryConfig<T> {
  readonly calmSticky: T;
  readonly nluSticky: T;
  readonly nluNonSticky: T;
}

export type EntryResult<T> =
  | { readonly ok: true; readonly entries: EntryConfig<T> }
  | { readonly ok: false; readonly problems: readonly string[] };

/** IntentBasedRouter: `calm_entry.sticky`, `nlu_entry.sticky` and `nlu_entry.non_sticky` are lists of intents. */
export function intentEntries(options: Readonly<Record<string, unknown>>): EntryResult<readonly string[]> {
  const problems: string[] = [];
  const list = (section: string, key: string): string[] => {
    const value = record(options[section])[key];
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
    problems.push(`IntentBasedRouter needs ${section}.${key}: a list of intents (it may be empty).`);
    return [];
  };
  const entries = {
    calmSticky: list('calm_entry', 'sticky'),
    nluSticky: list('nlu_entry', 'sticky'),
    nluNonSticky: list('nlu_entry', 'non_sticky'),
  };
  return problems.length > 0 ? { ok: false, problems } : { ok: true, entries };
}

/** LLMBasedRouter: descriptions of what each side handles; only `calm_entry.sticky` is required. */
export function llmEntries(options: Readonly<Record<string, unknown>>): EntryResult<string> {
  const calm = record(options['calm_entry'])['sticky'];
  const nlu = record(options['nlu_entry']);
  if (typeof calm !== 'string' || calm.trim() === '')
    return {
      ok: false,
      problems: ['LLMBasedRouter needs calm_entry.sticky: a description of what the CALM part handles.'],
    };
  return {
    ok: true,
    entries: {
      calmSticky: calm,
      nluSticky: typeof nlu['sticky'] === 'string' ? nlu['sticky'] : 'handles everything else',
      nluNonSticky: typeof nlu['non_sticky'] === 'string' ? nlu['non_sticky'] : 'handles chitchat',
    },
  };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
