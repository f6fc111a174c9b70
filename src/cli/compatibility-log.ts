import { compatibilityFindings } from '../project/compatibility/findings.js';
import type { LoadedProject } from '../project/load-project.js';
import type { Logger } from '../runtime/logger.js';

/**
 * Says at start-up, once per cause, what of the project Parley does not run as Rasa would (components
 * it replaces or ignores, custom prompts, the response rephraser): one structured warning each, with
 * the diagnostic code `parley data validate` reports for it.
 */
export function logCompatibility(logger: Logger, project: Pick<LoadedProject, 'raw' | 'assistant'>): void {
  for (const finding of compatibilityFindings(project))
    logger.warn(
      { code: finding.code, subject: finding.subject, file: finding.where.file, line: finding.where.line },
      finding.message,
    );
}
