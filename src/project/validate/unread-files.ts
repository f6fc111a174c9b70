import type { DiagnosticCode } from '../../core/diagnostic-codes.js';
import type { Diagnostic } from '../../core/errors.js';
import type { ProjectDiagnostics } from '../diagnostics.js';
import type { LoadedProject } from '../load-project.js';
import type { ProjectLocation } from '../load/discover.js';

/** What makes a file's content unknown: it is not there, cannot be read, or does not parse. */
const UNREAD: ReadonlySet<DiagnosticCode> = new Set(['PATH_NOT_FOUND', 'FILE_UNREADABLE', 'YAML_SYNTAX']);

/** The checks that look names up in each section of the domain. */
const AGAINST_DOMAIN_SECTION: Readonly<Record<string, readonly DiagnosticCode[]>> = {
  slots: [
    'COLLECT_UNKNOWN_SLOT',
    'SET_SLOTS_UNKNOWN_SLOT',
    'CONDITION_UNKNOWN_SLOT',
    'RESPONSE_UNKNOWN_SLOT',
    'BUTTON_UNKNOWN_SLOT',
    'COEXISTENCE_ROUTING_SLOT',
  ],
  responses: ['ACTION_UNKNOWN', 'COLLECT_NO_QUESTION', 'REJECTION_UNKNOWN_RESPONSE'],
  actions: ['ACTION_UNKNOWN', 'COLLECT_NO_QUESTION', 'STORY_UNKNOWN_NAME'],
  intents: ['NLU_TRIGGER_UNKNOWN_INTENT', 'BUTTON_UNKNOWN_INTENT', 'STORY_UNKNOWN_NAME'],
  entities: ['SLOT_MAPPING_UNKNOWN_ENTITY'],
};

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

interface Cause {
  readonly file: string;
  readonly codes: readonly DiagnosticCode[];
}

/**
 * A file that is missing or does not parse is reported once, for itself. What the other files' checks
 * would say for want of its names ("collects 'name', which the domain does not declare" when domain.yml
 * has a syntax error) is left out, and one note says how much was left out and why. A misspelt section
 * of the domain (`respones:`) is the same: see foldMisspeltSections.
 */
export function dropEchoesOfUnreadFiles(
  project: LoadedProject,
  location: ProjectLocation,
  diagnostics: ProjectDiagnostics,
): void {
  foldMisspeltSections(project, diagnostics);
  const causes = unreadFiles(project, location, diagnostics);
  const skipped = new Set(causes.flatMap((cause) => cause.codes));
  const dropped = diagnostics.drop((item) => skipped.has(item.code));
  const files = [...new Set(causes.map((cause) => cause.file))];
  if (dropped === 0 || files[0] === undefined) return;
  diagnostics.add({
    code: 'CHECKS_SKIPPED',
    file: files[0],
    line: 1,
    column: 1,
    message:
      `Left out ${dropped} finding${dropped === 1 ? '' : 's'} of other files about names that ` +
      `${files.join(', ')} may declare: ${files.length === 1 ? 'it does' : 'they do'} not load.`,
  });
}

function unreadFiles(
  project: LoadedProject,
  location: ProjectLocation,
  diagnostics: ProjectDiagnostics,
): Cause[] {
  const unread = diagnostics.all.filter((item) => UNREAD.has(item.code)).map((item) => item.file);
  const domainCodes = [...new Set(Object.values(AGAINST_DOMAIN_SECTION).flat())];
  return unread.flatMap((file): Cause[] => {
    if (project.files.domain.includes(file) || file === location.domain)
      return [{ file, codes: domainCodes }];
    if (project.files.data.includes(file) || location.data?.includes(file))
      return [{ file, codes: AGAINST_THE_DATA }];
    return [];
  });
}

/**
 * A domain section whose key is misspelt (`respones:`) declares nothing, and every name it holds would
 * be reported where it is used ("runs 'utter_greet', which is no response"). Those findings fold into the
 * misspelt key's own diagnostic, which becomes DOMAIN_KEY_MISSPELT, an error, when one of them was: the
 * project must not pass validation because its errors were folded away.
 */
function foldMisspeltSections(project: LoadedProject, diagnostics: ProjectDiagnostics): void {
  for (const misspelt of diagnostics.misspeltTopLevelKeys) {
    const codes = AGAINST_DOMAIN_SECTION[misspelt.key];
    if (codes === undefined || !project.files.domain.includes(misspelt.file)) continue;
    const echoes = diagnostics.all.filter((item) => codes.includes(item.code));
    if (echoes.length === 0) continue;
    const { at } = misspelt;
    const own = (item: Diagnostic) =>
      item.code === 'DOMAIN_IGNORED_KEY' && item.file === at.file && item.line === at.line;
    diagnostics.drop((item) => echoes.includes(item) || own(item));
    const failing = echoes.some((item) => item.severity === 'error');
    const kinds = [...new Set(echoes.map((item) => item.code))].join(', ');
    diagnostics.add({
      code: failing ? 'DOMAIN_KEY_MISSPELT' : 'DOMAIN_IGNORED_KEY',
      file: at.file,
      line: at.line,
      column: at.column,
      message:
        `unknown property '${misspelt.found}', so the ${misspelt.key} it lists are not declared ` +
        `(${echoes.length} finding${echoes.length === 1 ? '' : 's'} where they are used: ${kinds})`,
      hint: `did you mean '${misspelt.key}'?`,
    });
  }
}
