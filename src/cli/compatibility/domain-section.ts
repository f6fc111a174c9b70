import { isRunnableBuiltInAction } from '../../core/built-ins/index.js';
import { BUILT_IN_ACTIONS } from '../../core/domain/built-in-actions.js';
import { SLOT_MAPPING_TYPES, SLOT_TYPES } from '../../project/schemas/domain.js';
import { row } from './types.js';
import type { Section } from './types.js';

/** Rasa's slot types (rasa/shared/core/slots.py); a Python class path is a custom type. */
const RASA_SLOT_TYPES: Readonly<Record<string, string>> = {
  text: '',
  bool: '',
  float: '',
  categorical: '',
  any: '',
  list: '',
  '`module.CustomSlot`': 'custom slot classes are Python: refused',
};

/** Rasa's slot mapping types (3.7–3.16). */
const RASA_MAPPINGS: Readonly<Record<string, string>> = {
  from_llm: '',
  controlled: 'set by custom actions, set_slots and button payloads only (Rasa 3.12)',
  from_entity: 'filled by the NLU pipeline',
  from_intent: 'filled by the NLU pipeline',
  from_trigger_intent: '',
  from_text: '',
  custom: 'deprecated in Rasa 3.12; read as controlled',
};

export function domainSection(): Section {
  const types = new Set<string>(SLOT_TYPES);
  const mappings = new Set<string>(SLOT_MAPPING_TYPES);
  return {
    title: 'Domain',
    intro: 'Slot types and slot mappings of the domain.',
    rows: [
      ...Object.entries(RASA_SLOT_TYPES).map(([type, note]) =>
        row(
          type.startsWith('`') ? `slot type ${type}` : `slot type \`${type}\``,
          types.has(type) ? 'supported' : 'refused',
          note,
        ),
      ),
      ...Object.entries(RASA_MAPPINGS).map(([type, note]) =>
        row(`slot mapping \`${type}\``, mappings.has(type) ? 'supported' : 'refused', note),
      ),
    ],
  };
}

export function builtInActionsSection(): Section {
  return {
    title: 'Built-in actions',
    intro: 'Default actions a flow or a pattern may name without declaring them in the domain.',
    rows: BUILT_IN_ACTIONS.map((name) =>
      row(`\`${name}\``, isRunnableBuiltInAction(name) ? 'supported' : 'refused'),
    ),
  };
}
