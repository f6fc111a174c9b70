import type { Domain } from './types.js';

/** Parley's own `action_session_start` runs when no custom action of that name is found. */
const BUILT_IN_FALLBACKS: readonly string[] = ['action_session_start'];

/**
 * The names under the domain's `actions:` that run as custom actions, sorted: every declared name but
 * `utter_*` (Rasa always runs those as responses) and `action_session_start` (Parley's own runs when
 * the project gives none). A declared built-in name is an override and counts, as Rasa calls the
 * action server for it; so do `validate_<slot>` and `action_ask_<slot>`, which are optional only when
 * the domain does not declare them.
 */
export function declaredCustomActions(domain: Pick<Domain, 'actions'>): string[] {
  return [...domain.actions.keys()]
    .filter((name) => !name.startsWith('utter_') && !BUILT_IN_FALLBACKS.includes(name))
    .sort();
}

/** A TypeScript or JavaScript module Parley loads actions from (not a declaration file or a test). */
export function isActionModuleFile(fileName: string): boolean {
  return /\.(ts|mts|js|mjs)$/.test(fileName) && !fileName.endsWith('.d.ts') && !fileName.includes('.test.');
}

/** `a, b, c and 4 more`: at most `shown` names, for one-line messages. */
export function listNames(names: readonly string[], shown = 8): string {
  const listed = names.slice(0, shown).join(', ');
  return names.length > shown ? `${listed} and ${names.length - shown} more` : listed;
}
