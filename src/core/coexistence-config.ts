/**
 * The entries of Rasa's coexistence routers in config.yml (`calm_entry`, `nlu_entry`), read with every
 * problem reported at once: validation and the runtime read them the same way.
 */
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
