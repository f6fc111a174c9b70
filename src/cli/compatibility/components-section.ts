import { COMPONENTS } from '../../project/compatibility/components.js';
import type {
  ComponentEntry,
  ComponentKind,
  ComponentStatus,
} from '../../project/compatibility/components.js';
import { row } from './types.js';
import type { Section, Support } from './types.js';

/** The table's statuses in the page's words: what is ignored is warned about, what is unsupported refused. */
const SUPPORT: Readonly<Record<ComponentStatus, Support>> = {
  supported: 'supported',
  replaced: 'replaced',
  ignored: 'warned',
  unsupported: 'refused',
};

export function componentsSection(kind: ComponentKind): Section {
  const entries = COMPONENTS.filter((entry) => entry.kind === kind);
  return {
    title: kind === 'component' ? 'Pipeline components (config.yml)' : 'Policies (config.yml)',
    intro:
      'Read from the same table `parley data validate` and the start-up log use; a name not in it ' +
      '(a custom Python class) is warned about and not run.',
    rows: entries.map((entry) => row(`\`${entry.name}\``, SUPPORT[entry.status], noteOf(entry))),
  };
}

function noteOf(entry: ComponentEntry): string {
  return entry.replacement === undefined ? entry.note : `by ${entry.replacement}. ${entry.note}`;
}
