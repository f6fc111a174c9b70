import type { DiagnosticCode } from '../../core/diagnostic-codes.js';
import type { ProjectDiagnostics } from '../diagnostics.js';
import type { LoadedProject } from '../load-project.js';
import type { ProjectLocation } from '../load/discover.js';

/** What makes a file's content unknown: it is not there, cannot be read, or does not parse. */
const UNREAD: ReadonlySet<DiagnosticCode> = new Set(['PATH_NOT_FOUND', 'FILE_UNREADABLE', 'YAML_SYNTAX']);

/** Checks that look names up in the domain: with a domain file unread, their findings are its echoes. */
const AGAINST_THE_DOMAIN: readonly DiagnosticCode[] = [
  'COLLECT_UNKNOWN_SLOT',
  'COLLECT_NO_QUESTION',
  'SET_SLOTS_UNKNOWN_SLOT',
  'ACTION_UNKNOWN',
  'REJECTION_UNKNOWN_RESPONSE',
  'CONDITION_UNKNOWN_SLOT',
  'RESPONSE_UNKNOWN_SLOT',
  'SLOT_MAPPING_UNKNOWN_ENTITY',
  'NLU_TRIGGER_UNKNOWN_INTENT',
  'STORY_UNKNOWN_NAME',
  'COEXISTENCE_ROUTING_SLOT',
];

/** Checks that look names up in the training data (flows, NLU data, responses kept there). */
const AGAINST_THE_DATA: readonly DiagnosticCode[] = [
  'LINK_UNKNOWN_FLOW',
  'CALL_UNKNOWN_FLOW',
  'SLOT_MAPPING_UNKNOWN_FLOW',
  'NLU_TRIGGER_UNKNOWN_INTENT',
  'ACTION_UNKNOWN',
  'COLLECT_NO_QUESTION',
  'REJECTION_UNKNOWN_RESPONSE',
];

/**
 * A file that is missing or does not parse is reported once, for itself. What the other files' checks
 * would say for want of its names ("collects 'name', which the domain does not declare" when domain.yml
 * has a syntax error) is left out, and one note says which checks were skipped and why.
 */
export function dropEchoesOfUnreadFiles(
  project: LoadedProject,
  location: ProjectLocation,
  diagnostics: ProjectDiagnostics,
): void {
  const unread = diagnostics.all.filter((item) => UNREAD.has(item.code)).map((item) => item.file);
  const domain = unread.filter((file) => project.files.domain.includes(file) || file === location.domain);
  const data = unread.filter((file) => project.files.data.includes(file) || location.data?.includes(file));
  const skipped = new Set<DiagnosticCode>([
    ...(domain.length > 0 ? AGAINST_THE_DOMAIN : []),
    ...(data.length > 0 ? AGAINST_THE_DATA : []),
  ]);
  const dropped = diagnostics.drop((item) => skipped.has(item.code));
  if (dropped === 0) return;
  const files = [...new Set([...domain, ...data])];
  diagnostics.add({
    code: 'CHECKS_SKIPPED',
    file: files[0] ?? project.files.root,
    line: 1,
    column: 1,
    message:
      `Left out ${dropped} finding${dropped === 1 ? '' : 's'} of other files about names that ` +
      `${files.join(', ')} may declare: ${files.length === 1 ? 'it does' : 'they do'} not load.`,
  });
}
