import { compatibilityFindings } from '../../compatibility/findings.js';
import type { ValidationRule } from '../rule.js';

/** What Parley replaces, ignores, refuses or cannot load in config.yml and endpoints.yml, once per cause. */
export const compatibilityRule: ValidationRule = {
  name: 'compatibility',
  check(context) {
    for (const finding of compatibilityFindings(context.project))
      context.report(finding.code, finding.where, finding.message);
  },
};
