import type { SubAgentConfig } from '../core/agents/sub-agent.js';
import type { Assistant } from '../core/assistant.js';
import type { Flow, Step } from '../core/flows/types.js';
import { EMPTY_NLU_DATA } from '../core/domain/nlu-data.js';
import type { Diagnostic } from '../core/errors.js';
import { FlowList } from '../core/flows/flow-list.js';
import { defaultPatternFiles } from './defaults.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectDiagnostics } from './diagnostics.js';
import type { DiagnosticInput } from './diagnostics.js';
import { discoverProjectFiles } from './load/discover.js';
import type { ProjectFiles, ProjectLocation } from './load/discover.js';
import type { Environment } from './load/env-interpolation.js';
import { readProject } from './load/read-project.js';
import { readSubAgents } from './load/sub-agents.js';
import type { RawProject, Section } from './load/read-project.js';
import { buildConfig } from './normalise/config.js';
import type { SourceContext } from './normalise/context.js';
import { buildDomain } from './normalise/domain.js';
import { buildDialogueData } from './normalise/stories.js';
import { buildFlows } from './normalise/flows.js';
import { buildNluData } from './normalise/nlu.js';

export interface LoadOptions {
  /** environment for `${VAR}` interpolation; defaults to process.env */
  readonly env?: Environment;
  /**
   * the Rasa version whose default pattern behaviour to reproduce (overrides `parley.rasa_version` in
   * config.yml); lets a project written for an older Rasa run unchanged
   */
  readonly rasaVersion?: string;
}

/** An assistant as loaded from disk, with what validation needs to point back at the files. */
export interface LoadedProject {
  readonly assistant: Assistant;
  readonly files: ProjectFiles;
  readonly raw: RawProject;
  /** e2e test files found under tests/ and e2e_tests/, schema-checked */
  readonly tests: readonly Section[];
}

export interface LoadResult {
  readonly project: LoadedProject;
  readonly diagnostics: ProjectDiagnostics;
}

/** Reads, schema-checks and normalises an assistant. Always returns a best-effort model plus every problem. */
export function loadProject(location: ProjectLocation, options: LoadOptions = {}): LoadResult {
  const diagnostics = new ProjectDiagnostics();
  const files = discoverProjectFiles(location);
  for (const path of files.missing) diagnostics.add(pathNotFound(location, path));
  const raw = readProject(files, options.env ?? process.env, diagnostics);
  const subAgents = files.missing.includes(files.root) ? new Map() : readSubAgents(files.root, diagnostics);
  const assistant = buildAssistant(raw, diagnostics, options.rasaVersion, subAgents);
  reportMissingParts(location, files, raw, diagnostics);
  return { project: { assistant, files, raw, tests: raw.tests }, diagnostics };
}

/**
 * A path of the command line that is not there, named with the flag that gave it. Paths are relative to
 * the current folder, not to the project: when the project has a file of that name, the hint says so.
 */
function pathNotFound(location: ProjectLocation, path: string): DiagnosticInput {
  const at = { code: 'PATH_NOT_FOUND', file: path, line: 1, column: 1 } as const;
  if (path === location.project) {
    return {
      ...at,
      message: `The project folder '${path}' does not exist.`,
      hint: `Check -p/--project (for \`parley run\`, --project): it names the assistant folder, relative to the current folder ${process.cwd()}.`,
    };
  }
  const flag = flagOf(location, path);
  const inProject = location.project !== undefined && existsSync(join(location.project, path));
  return {
    ...at,
    message: `${flag} ${path}: no such file or folder.`,
    hint: inProject
      ? `Paths are relative to the current folder, not to the project: did you mean ${join(location.project ?? '.', path)}?`
      : `Check the path given to ${flag} (relative to the current folder ${process.cwd()}).`,
  };
}

function flagOf(location: ProjectLocation, path: string): string {
  if (path === location.config) return '--config';
  if (path === location.domain) return '--domain';
  if (path === location.endpoints) return '--endpoints';
  if (path === location.credentials) return '--credentials';
  if (location.data?.includes(path)) return '--data';
  return 'the test path';
}

function buildAssistant(
  raw: RawProject,
  diagnostics: ProjectDiagnostics,
  rasaVersion: string | undefined,
  subAgents: ReadonlyMap<string, SubAgentConfig>,
): Assistant {
  const own = (section: Section): SourceContext => ({ file: section.file, diagnostics, isDefault: false });
  const config = buildConfig(raw.config?.data ?? {}, rasaVersion);
  const defaults = defaultSections(diagnostics, config.rasaVersion);
  const domainSections = [...raw.domain, ...raw.dataResponses];
  const domain = buildDomain([
    ...domainSections.map((section) => ({ section, context: own(section) })),
    ...defaults,
  ]);
  const projectFlows = markAgentCalls(
    raw.flows.flatMap((section) => buildFlows(section, own(section))),
    subAgents,
  );
  // The first definition of an id wins: the project's, then the version overlays, then the defaults.
  const taken = new Set(projectFlows.map((flow) => flow.id));
  const defaultFlows = defaults
    .flatMap((part) => buildFlows(part.section, part.context))
    .filter((flow) => !taken.has(flow.id) && Boolean(taken.add(flow.id)));
  return {
    config,
    domain,
    flows: new FlowList([...projectFlows, ...defaultFlows]),
    nlu:
      raw.nlu.length > 0
        ? buildNluData(raw.nlu.map((section) => ({ section, context: own(section) })))
        : EMPTY_NLU_DATA,
    dialogue: buildDialogueData(
      raw.stories.map((section) => ({ section, context: own(section) })),
      raw.rules.map((section) => ({ section, context: own(section) })),
    ),
    endpoints: raw.endpoints?.data ?? {},
    credentials: raw.credentials?.data ?? {},
    subAgents,
  };
}

/** Rasa's order for `call:`: an MCP tool (with mcp_server), else a loaded sub-agent, else a flow */
function markAgentCalls(flows: Flow[], subAgents: ReadonlyMap<string, SubAgentConfig>): Flow[] {
  if (subAgents.size === 0) return flows;
  return flows.map((flow) =>
    flow.steps.some((step) => isAgentCall(step, subAgents))
      ? {
          ...flow,
          steps: flow.steps.map((step) =>
            isAgentCall(step, subAgents) ? { ...step, callee: 'agent' } : step,
          ),
        }
      : flow,
  );
}

function isAgentCall(step: Step, subAgents: ReadonlyMap<string, SubAgentConfig>): boolean {
  return step.kind === 'call' && step.callee !== 'mcp_tool' && subAgents.has(step.call);
}

function defaultSections(
  diagnostics: ProjectDiagnostics,
  rasaVersion: string | undefined,
): { section: Section; context: SourceContext }[] {
  return defaultPatternFiles(rasaVersion).map((file) => ({
    section: { file, data: (file.data ?? {}) as Record<string, unknown> },
    context: { file, diagnostics, isDefault: true },
  }));
}

/**
 * Reports the parts an assistant needs but lacks. A part whose command-line path does not exist, or whose
 * data files did not parse, has been reported already: saying it is missing as well would repeat that.
 */
function reportMissingParts(
  location: ProjectLocation,
  files: ProjectFiles,
  raw: RawProject,
  diagnostics: ProjectDiagnostics,
): void {
  const root = files.root;
  if (files.missing.includes(root)) return;
  const notFound = (path: string | undefined): boolean => path !== undefined && files.missing.includes(path);
  const unreadData = diagnostics.all.some(
    (item) =>
      files.data.includes(item.file) && (item.code === 'YAML_SYNTAX' || item.code === 'FILE_UNREADABLE'),
  );
  if (files.config === undefined && !notFound(location.config)) {
    diagnostics.add({
      code: 'CONFIG_MISSING',
      file: `${root}/config.yml`,
      line: 1,
      column: 1,
      message: 'No config.yml found.',
    });
  }
  if (files.domain.length === 0 && !notFound(location.domain)) {
    diagnostics.add({
      code: 'DOMAIN_MISSING',
      file: `${root}/domain.yml`,
      line: 1,
      column: 1,
      message: 'No domain.yml or domain/ folder found.',
    });
  }
  if (raw.flows.length === 0 && !unreadData && !(location.data ?? []).some(notFound)) {
    diagnostics.add({
      code: 'FLOWS_MISSING',
      file: `${root}/data`,
      line: 1,
      column: 1,
      message: 'No YAML file with a `flows:` key was found under data/ or flows/.',
    });
  }
}

export type { Diagnostic };
