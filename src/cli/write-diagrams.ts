import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Flow } from '../core/flows/types.js';
import { isPatternId } from '../core/flows/types.js';
import { renderFlowDiagram } from '../diagrams/index.js';
import type { ProjectLocation } from '../project/load/discover.js';
import { loadProject } from '../project/load-project.js';
import { closeNames } from './close-names.js';
import { formatDiagnosticsText } from './format-diagnostics.js';
import type { CliIo } from './io.js';

export interface WriteDiagramsOptions {
  readonly location: ProjectLocation;
  readonly outDir: string;
  readonly includePatterns: boolean;
  readonly flowId?: string;
}

const MAX_FLOW_ID_SHOWN = 100;

/** A file name for a flow id. Loading refuses ids outside [A-Za-z0-9_-], so this only guards. */
export function diagramFileName(flowId: string): string {
  return `${flowId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 200)}.svg`;
}

/** Writes the diagrams and reports on stdout; returns the exit code (1 for an unknown flow or a broken project). */
export function writeFlowDiagrams(io: CliIo, options: WriteDiagramsOptions): number {
  const { project, diagnostics } = loadProject(options.location);
  if (diagnostics.hasErrors) {
    io.stderr(formatDiagnosticsText(diagnostics.all, { quiet: true }));
    io.stderr(
      'parley: the assistant does not load; fix the errors above (parley data validate) to draw its flows.\n',
    );
    return 1;
  }
  const all = project.assistant.flows.flows;
  const chosen = chooseFlows(io, all, options);
  if (!chosen) return 1;
  const outDir = resolve(options.outDir);
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) {
    io.stderr(`parley: --out ${outDir} is a file, not a folder.\n`);
    return 1;
  }
  mkdirSync(outDir, { recursive: true });
  for (const flow of chosen) {
    const path = join(outDir, diagramFileName(flow.id));
    writeFileSync(path, `${renderFlowDiagram(flow)}\n`);
    io.stdout(`${path}\n`);
  }
  io.stdout(`Wrote ${chosen.length} flow diagram${chosen.length === 1 ? '' : 's'} to ${outDir}.\n`);
  return 0;
}

function chooseFlows(
  io: CliIo,
  all: readonly Flow[],
  options: WriteDiagramsOptions,
): readonly Flow[] | undefined {
  const { flowId } = options;
  if (flowId === undefined)
    return options.includePatterns ? all : all.filter((flow) => !isPatternId(flow.id));
  const found = all.find((flow) => flow.id === flowId);
  if (found) return [found];
  const shown = flowId.length > MAX_FLOW_ID_SHOWN ? `${flowId.slice(0, MAX_FLOW_ID_SHOWN)}…` : flowId;
  const close = closeNames(
    flowId.slice(0, MAX_FLOW_ID_SHOWN),
    all.map((flow) => flow.id),
  );
  const hint = close.length > 0 ? `Did you mean: ${close.join(', ')}?` : `Its flows: ${someIds(all)}.`;
  io.stderr(`parley: no flow '${JSON.stringify(shown).slice(1, -1)}' in the assistant. ${hint}\n`);
  return undefined;
}

function someIds(flows: readonly Flow[]): string {
  const ids = flows.filter((flow) => !isPatternId(flow.id)).map((flow) => flow.id);
  const listed = ids.slice(0, 10).join(', ');
  return ids.length > 10 ? `${listed} and ${ids.length - 10} more` : listed || 'none but the patterns';
}
