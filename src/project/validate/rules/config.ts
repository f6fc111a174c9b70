import { positionOf } from '../../load/yaml-file.js';
import type { ValidationRule } from '../rule.js';

const PLACEHOLDER_IDS = ['placeholder_default', ''];

/** config.yml names the assistant (Rasa warns when assistant_id is missing or still the template value). */
export const configRule: ValidationRule = {
  name: 'config',
  check(context) {
    const section = context.project.raw.config;
    if (!section) return;
    const id = context.assistant.config.assistantId;
    if (id !== undefined && !PLACEHOLDER_IDS.includes(id.trim())) return;
    // at the placeholder's key when there is one, else at the top of the file
    const where =
      'assistant_id' in section.data
        ? positionOf(section.file, ['assistant_id'], true)
        : { file: section.file.path, line: 1, column: 1 };
    const message =
      id === undefined
        ? 'config.yml has no assistant_id.'
        : `config.yml still has the placeholder assistant_id '${id}'.`;
    context.report('CONFIG_ASSISTANT_ID_MISSING', where, message);
  },
};
