import { Command } from 'commander';
import type { CliIo } from './io.js';
import { addProjectOptions, toLocation } from './project-options.js';
import type { ProjectFlags } from './project-options.js';

interface DiagramFlags extends ProjectFlags {
  readonly out: string;
  readonly patterns: boolean;
}

/** `parley data diagram [FLOW] --out DIR`: one SVG diagram per flow (or of FLOW alone). */
export function diagramCommand(io: CliIo): Command {
  const command = new Command('diagram')
    .description('draw the flows as SVG diagrams, one file per flow (FLOW_ID.svg)')
    .argument('[flow]', 'draw only this flow (default: every flow, the pattern flows too)')
    .option('--out <dir>', 'the folder to write the diagrams to (created if missing)', 'diagrams')
    .option('--no-patterns', 'leave out the pattern flows (pattern_*) when drawing every flow');
  addProjectOptions(command).action(async (flowId: string | undefined, flags: DiagramFlags) => {
    // Loaded on use, like validate, so other commands do not pay for the loader and the layout.
    const { writeFlowDiagrams } = await import('./write-diagrams.js');
    io.setExitCode(
      writeFlowDiagrams(io, {
        location: toLocation(flags),
        outDir: flags.out,
        includePatterns: flags.patterns,
        ...(flowId !== undefined ? { flowId } : {}),
      }),
    );
  });
  return command;
}
