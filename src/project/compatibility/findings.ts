import type { AssistantConfig, ComponentConfig } from '../../core/assistant.js';
import type { DiagnosticCode } from '../../core/diagnostic-codes.js';
import type { SourceRef } from '../../core/errors.js';
import type { LoadedProject } from '../load-project.js';
import type { Section } from '../load/read-project.js';
import { lazyPositionOf, positionOf } from '../load/yaml-file.js';
import { componentEntry, OPTIONS_NOT_READ } from './components.js';
import type { ComponentEntry, ComponentKind } from './components.js';
import { endpointSectionFindings } from './endpoints.js';
import { rephraserFinding } from './rephraser.js';

/** One thing of the project that Parley does not run as Rasa would, said once, where it is written. */
export interface CompatibilityFinding {
  readonly code: DiagnosticCode;
  readonly where: SourceRef;
  readonly message: string;
  /** the component(s), policy or setting concerned (for structured logs) */
  readonly subject: string;
}

/** A component or policy as config.yml lists it. */
interface Listed {
  readonly name: string;
  readonly kind: ComponentKind;
  readonly where: SourceRef;
  readonly options: Readonly<Record<string, unknown>>;
  readonly path: readonly (string | number)[];
}

const PROMPT_KEYS = ['prompt_template', 'prompt'] as const;
const NOWHERE: SourceRef = { file: 'config.yml', line: 1, column: 1 };

/**
 * Everything in config.yml and endpoints.yml that Parley replaces, ignores, refuses or cannot load, once
 * per cause: the components and policies by their entry in the compatibility table (those replaced by
 * the same thing of Parley's in one finding), each custom prompt template, the response rephraser, the
 * endpoints.yml sections it does not act on.
 * Read by `validate` (as diagnostics) and by `parley run` at start-up (as warnings in the log).
 */
export function compatibilityFindings(
  project: Pick<LoadedProject, 'raw' | 'assistant'>,
): CompatibilityFinding[] {
  const config = project.raw.config;
  const listed = config
    ? [...listedIn(config, 'pipeline', 'component'), ...listedIn(config, 'policies', 'policy')]
    : [];
  const findings = tableFindings(listed);
  if (config) findings.push(...listed.flatMap((item) => promptFinding(item, config) ?? []));
  const rephraser = rephraserFinding(project);
  if (rephraser) findings.push(rephraser);
  findings.push(...endpointSectionFindings(project));
  return findings;
}

/** The table's word on a config's components and policies, as sentences (the model archive's notes). */
export function componentNotes(config: Pick<AssistantConfig, 'pipeline' | 'policies'>): string[] {
  const listed = (items: readonly ComponentConfig[], kind: ComponentKind): Listed[] =>
    items.map((item) => ({ name: item.name, kind, where: NOWHERE, options: item.options, path: [] }));
  return tableFindings(
    unique([...listed(config.pipeline, 'component'), ...listed(config.policies, 'policy')]),
  ).map((finding) => finding.message);
}

function listedIn(config: Section, key: 'pipeline' | 'policies', kind: ComponentKind): Listed[] {
  const items = config.data[key];
  if (!Array.isArray(items)) return [];
  const listed = items.flatMap((item: unknown, index): Listed[] => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return [];
    const options = item as Record<string, unknown>;
    const name = options['name'];
    if (typeof name !== 'string') return [];
    const where = lazyPositionOf(config.file, [key, index, 'name']);
    return [{ name, kind, where, options, path: [key, index] }];
  });
  return unique(listed);
}

/** Each name once (Rasa pipelines often list CountVectorsFeaturizer twice). */
function unique(listed: readonly Listed[]): Listed[] {
  const seen = new Set<string>();
  return listed.filter((item) => {
    const key = `${item.kind}:${item.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function tableFindings(listed: readonly Listed[]): CompatibilityFinding[] {
  const findings: (CompatibilityFinding | { group: string })[] = [];
  const groups = new Map<string, { where: SourceRef; entries: ComponentEntry[] }>();
  for (const item of listed) {
    const entry = componentEntry(item.name, item.kind);
    if (entry?.status === 'replaced') {
      const key = `${entry.kind}:${entry.replacement ?? ''}`;
      const group = groups.get(key);
      if (group) group.entries.push(entry);
      else {
        groups.set(key, { where: item.where, entries: [entry] });
        findings.push({ group: key });
      }
      continue;
    }
    const finding = singleFinding(item, entry);
    if (finding) findings.push(finding);
  }
  return findings.map((finding) => {
    if (!('group' in finding)) return finding;
    const group = groups.get(finding.group);
    if (!group) throw new Error(`no group ${finding.group}`);
    return replacedFinding(group.entries, group.where);
  });
}

function singleFinding(item: Listed, entry: ComponentEntry | undefined): CompatibilityFinding | undefined {
  const base = { where: item.where, subject: item.name };
  if (!entry) {
    const what = item.kind === 'component' ? 'pipeline component' : 'policy';
    return {
      ...base,
      code: 'CONFIG_COMPONENT_UNKNOWN',
      message: `${item.name} is not a ${what} Parley knows (a custom Python class cannot run here); it is not run.`,
    };
  }
  switch (entry.status) {
    case 'supported':
    case 'replaced':
      return undefined;
    case 'ignored':
      return {
        ...base,
        code: 'CONFIG_COMPONENT_IGNORED',
        message: `${item.name} is not run and nothing replaces it. ${entry.note}`,
      };
    case 'unsupported':
      return {
        ...base,
        code: 'CONFIG_COMPONENT_UNSUPPORTED',
        message: `${item.name} is not supported: ${entry.note}`,
      };
  }
}

/** Components replaced by the same thing of Parley's: one sentence, with what each one keeps. */
function replacedFinding(entries: readonly ComponentEntry[], where: SourceRef): CompatibilityFinding {
  const names = entries.map((entry) => entry.name);
  const [first] = entries;
  const one = entries.length === 1;
  const head = `${listOf(names)} ${one ? 'is' : 'are'} not run; in ${one ? 'its' : 'their'} place: ${first?.replacement ?? 'an equivalent of Parley’s'}.`;
  const details = one
    ? [first?.note ?? '']
    : entries
        .filter((entry) => entry.note !== OPTIONS_NOT_READ)
        .map((entry) => `${entry.name}: ${lowerFirst(entry.note)}`);
  return {
    code: 'CONFIG_COMPONENT_REPLACED',
    where,
    subject: names.join(', '),
    message: [head, ...details].filter((part) => part !== '').join(' '),
  };
}

/** 'The NLU data…' → 'the NLU data…' inside a sentence; an acronym stays as it is. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/** A custom prompt of a component or policy that runs (one that does not run is said once already). */
function promptFinding(item: Listed, config: Section): CompatibilityFinding | undefined {
  const status = componentEntry(item.name, item.kind)?.status;
  if (status !== 'supported' && status !== 'replaced') return undefined;
  const key = PROMPT_KEYS.find((candidate) => typeof item.options[candidate] === 'string');
  if (key === undefined) return undefined;
  return {
    code: 'CONFIG_CUSTOM_PROMPT',
    where: positionOf(config.file, [...item.path, key], true),
    subject: item.name,
    message: `${item.name}: the custom prompt template '${String(item.options[key])}' (${key}) is not used; Parley uses its own prompt.`,
  };
}
