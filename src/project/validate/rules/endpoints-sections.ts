import { RASA_ENDPOINT_SECTIONS } from '../../compatibility/endpoints.js';
import { positionOf } from '../../load/yaml-file.js';
import type { ValidationRule } from '../rule.js';

/** endpoints.yml sections Parley reads without acting on them are said, never ignored silently. */
export const endpointsSectionsRule: ValidationRule = {
  name: 'endpoints-sections',
  check(context) {
    const section = context.project.raw.endpoints;
    if (!section) return;
    for (const [key, value] of Object.entries(section.data)) {
      const known = RASA_ENDPOINT_SECTIONS[key];
      if (known?.support !== 'warned' || value === null || value === undefined) continue;
      context.report(
        'ENDPOINTS_SECTION_NOT_RUN',
        positionOf(section.file, [key], true),
        `endpoints.yml section '${key}' is not run by Parley: ${known.note}.`,
      );
    }
  },
};
