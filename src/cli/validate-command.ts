import { Command, Option } from 'commander';
import { formatDiagnosticsJson, formatDiagnosticsText } from './format-diagnostics.js';
import { addProjectOptions, toLocation } from './project-options.js';
import type { ProjectFlags } from './project-options.js';
import type { CliIo } from './io.js';

interface ValidateFlags extends ProjectFlags {
  readonly format: 'text' | 'json';
}

/** `parley data validate`: every diagnostic at once; exit 1 when there is an error, 0 otherwise. */
export function validateCommand(io: CliIo, name = 'validate'): Command {
  const command = new Command(name)
    .description('check the assistant for errors (flows, domain, conditions, responses, config)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'));
  addProjectOptions(command).action(async (flags: ValidateFlags) => {
    // Loaded on use so that `parley --help` and other commands do not pay for the validator.
    const { validateProject } = await import('../project/validate/index.js');
    const result = validateProject(toLocation(flags));
    const output =
      flags.format === 'json'
        ? formatDiagnosticsJson(result.diagnostics)
        : formatDiagnosticsText(result.diagnostics);
    io.stdout(output);
    io.setExitCode(result.hasErrors ? 1 : 0);
  });
  return command;
}
