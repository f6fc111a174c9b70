import type { LoadedProject } from '../load-project.js';
import { positionOf } from '../load/yaml-file.js';
import type { CompatibilityFinding } from './findings.js';

/** `nlg: type:` values that Parley serves as Rasa does: an NLG server, or the domain's own templates. */
const SERVED_TYPES = new Set(['callback', 'template']);

/**
 * The response rephraser of endpoints.yml (`nlg: type: rephrase`, or a custom NLG class such as a
 * rephraser subclass), as one finding: Parley sends responses as written, so it says how many were
 * meant to be rephrased (`metadata: rephrase: true`, the default patterns' included, or all of them with
 * `rephrase_all`) and that a custom `prompt` goes unused, rather than one warning per response.
 */
export function rephraserFinding(
  project: Pick<LoadedProject, 'raw' | 'assistant'>,
): CompatibilityFinding | undefined {
  const endpoints = project.raw.endpoints;
  const nlg = endpoints?.data['nlg'];
  if (!endpoints || typeof nlg !== 'object' || nlg === null || Array.isArray(nlg)) return undefined;
  const settings = nlg as Record<string, unknown>;
  const type = settings['type'];
  if (typeof type !== 'string' || SERVED_TYPES.has(type)) return undefined;
  const what =
    type === 'rephrase'
      ? 'The response rephraser (`nlg: type: rephrase`)'
      : `The NLG class '${type}' (a custom rephraser or generator)`;
  const parts = [`${what} is not run: responses are sent as written in the domain`];
  parts.push(affectedResponses(project, settings['rephrase_all'] === true));
  const prompt = settings['prompt'] ?? settings['prompt_template'];
  if (typeof prompt === 'string') parts.push(`its prompt '${prompt}' is not used`);
  return {
    code: 'NLG_REPHRASER_NOT_RUN',
    where: positionOf(endpoints.file, ['nlg', 'type']),
    subject: 'nlg',
    message: `${parts.join('; ')}.`,
  };
}

function affectedResponses(project: Pick<LoadedProject, 'assistant'>, all: boolean): string {
  if (all) return '`rephrase_all: true` asked for every response to be rephrased';
  let own = 0;
  let defaults = 0;
  for (const template of project.assistant.domain.responses.values()) {
    if (!template.variations.some((variation) => variation.metadata['rephrase'] === true)) continue;
    if (template.isDefault) defaults += 1;
    else own += 1;
  }
  const total = own + defaults;
  return `${total} response${total === 1 ? ' is' : 's are'} marked \`rephrase: true\` (${own} of the project's, ${defaults} of the default patterns)`;
}
