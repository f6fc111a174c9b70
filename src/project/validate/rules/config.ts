import type { ValidationRule } from '../rule.js';

const PLACEHOLDER_IDS = ['placeholder_default', ''];

/** config.yml names the assistant (Rasa warns when assistant_id is missing or still the template value). */
export const configRule: ValidationRule = {
  name: 'config',
  check(context) {
    const section = context.project.raw.config;
    if (!section) return;
    const id = context.assistant.config.assistantId;
    if (id === undefined || PLACEHOLDER_IDS.includes(id.trim())) {
      context.report(
        'CONFIG_ASSISTANT_ID_MISSING',
        { file: section.file.path, line: 1, column: 1 },
        'config.yml has no assistant_id.',
      );
    }
  },
};
