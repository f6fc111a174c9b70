import { Command, Option } from 'commander';
import { addReportVerbosityOptions, rasaVersionOption } from './common-options.js';
import { formatDiagnosticsJson, formatDiagnosticsText } from './format-diagnostics.js';
import { addProjectOptions, toLocation } from './project-options.js';
import type { ProjectFlags } from './project-options.js';
import type { CliIo } from './io.js';

interface ValidateFlags extends ProjectFlags {
  readonly format: 'text' | 'json';
  readonly failOnWarnings?: boolean;
  readonly rasaVersion?: string;
  readonly quiet?: boolean;
}

/**
 * `parley data validate`: every diagnostic at once; exit 1 when there is an error (or, with
 * `--fail-on-warnings` as in Rasa, a warning), 0 otherwise.
 */
export function validateCommand(io: CliIo, name = 'validate'): Command {
  const command = new Command(name)
    .description('check the assistant for errors (flows, domain, conditions, responses, config)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--fail-on-warnings', 'exit 1 when there are warnings too')
    .addOption(rasaVersionOption('validate with the default patterns of this Rasa version'));
  addReportVerbosityOptions(command, 'list errors and warnings only, not notes (all are counted)');
  addProjectOptions(command).action(async (flags: ValidateFlags) => {
    // Loaded on use so that `parley --help` and other commands do not pay for the validator.
    const { validateProject } = await import('../project/validate/index.js');
    const { checkActionModules } = await import('./check-action-modules.js');
    const { sortDiagnostics } = await import('../project/diagnostics.js');
    const result = validateProject(
      toLocation(flags),
      flags.rasaVersion ? { rasaVersion: flags.rasaVersion } : {},
    );
    const { assistant, files } = result.project;
    const actionModules = await checkActionModules({
      root: files.root,
      endpoints: assistant.endpoints,
      domain: assistant.domain,
    });
    const diagnostics = sortDiagnostics([...result.diagnostics, ...actionModules]);
    const output =
      flags.format === 'json'
        ? formatDiagnosticsJson(diagnostics)
        : formatDiagnosticsText(diagnostics, { quiet: flags.quiet === true });
    io.stdout(output);
    const failed = diagnostics.some(
      (item) => item.severity === 'error' || (flags.failOnWarnings === true && item.severity === 'warning'),
    );
    io.setExitCode(failed ? 1 : 0);
  });
  return command;
}
