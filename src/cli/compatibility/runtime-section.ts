import { BUILT_IN_CHANNELS, RASA_CHANNELS_NOT_SHIPPED } from '../../channels/built-ins.js';
import { RASA_ENDPOINT_SECTIONS } from '../../project/compatibility/endpoints.js';
import { endpointsSchema } from '../../project/schemas/endpoints.js';
import { row } from './types.js';
import type { Section } from './types.js';

const CHANNEL_NOTES: Readonly<Record<string, string>> = {
  rest: 'also `?stream=true`',
  socketio: "Rasa's web-chat protocol, JWT, session persistence",
};

export function channelsSection(): Section {
  const names = [...BUILT_IN_CHANNELS.keys(), ...RASA_CHANNELS_NOT_SHIPPED];
  return {
    title: 'Channels (credentials.yml)',
    intro:
      'A channel Parley does not ship is skipped with one warning at start-up and the others are served; ' +
      '`--connector` naming one is an error. Custom channels use the plugin API (docs/channels.md).',
    rows: names.map((name) =>
      row(
        `\`${name}\``,
        BUILT_IN_CHANNELS.has(name) ? 'supported' : 'warned',
        CHANNEL_NOTES[name] ?? (BUILT_IN_CHANNELS.has(name) ? '' : 'not shipped: skipped with a warning'),
      ),
    ),
  };
}

export function endpointsSection(): Section {
  const known = new Set(Object.keys((endpointsSchema['properties'] ?? {}) as Record<string, unknown>));
  return {
    title: 'endpoints.yml',
    intro: 'Sections of endpoints.yml; `${VAR}` references are expanded as in Rasa.',
    rows: Object.entries(RASA_ENDPOINT_SECTIONS).map(([key, { support, note }]) =>
      row(`\`${key}\``, known.has(key) ? support : 'refused', note),
    ),
  };
}
