import { checkRasaVersion } from '../../../core/patterns/rasa-versions.js';
import { positionOf } from '../../load/yaml-file.js';
import type { ValidationRule } from '../rule.js';

/** `parley.rasa_version` in config.yml names a Rasa version Parley knows (3.7 onward). */
export const rasaVersionRule: ValidationRule = {
  name: 'rasa-version',
  check(context) {
    const section = context.project.raw.config;
    const parley = section?.data['parley'];
    if (!section || typeof parley !== 'object' || parley === null || !('rasa_version' in parley)) return;
    const configured = (parley as Record<string, unknown>)['rasa_version'];
    if (configured === null || configured === undefined) return;
    const checked = checkRasaVersion(String(configured));
    if (checked.ok) return;
    const where = positionOf(section.file, ['parley', 'rasa_version']);
    context.report('RASA_VERSION_UNKNOWN', where, `parley.rasa_version: ${checked.message}`);
  },
};
