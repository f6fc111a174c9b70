import { Command } from 'commander';
import { addReportVerbosityOptions, rasaVersionOption } from './common-options.js';
import type { CliIo } from './io.js';
import { addProjectOptions, toLocation } from './project-options.js';
import type { ProjectFlags } from './project-options.js';

interface TrainFlags extends ProjectFlags {
  readonly out?: string;
  readonly fixedModelName?: string;
  readonly force?: boolean;
  readonly rasaVersion?: string;
  readonly skipValidation?: boolean;
  readonly failOnValidationWarnings?: boolean;
  readonly quiet?: boolean;
}

/** `parley train`: Rasa's flags; builds a model archive under models/ unless nothing changed. */
export function trainCommand(io: CliIo): Command {
  const command = new Command('train')
    .description(
      'train the assistant (compiled flows and domain, the NLU pipeline) into a model archive; ' +
        'skipped when a model of the same project files exists',
    )
    .option('--out <dir>', 'where to write the model (default: models/ in the project)')
    .option(
      '--fixed-model-name <name>',
      'name the archive <name>.tar.gz instead of <timestamp>-<fingerprint>',
    )
    .option('--force', 'train even when a model of the same project files exists')
    .addOption(rasaVersionOption('compile in the default pattern behaviour of this Rasa version'))
    .option(
      '--skip-validation',
      'skip the validation rules before training (files that do not load still stop it)',
    )
    .option('--fail-on-validation-warnings', 'refuse to train when validation has warnings too');
  addReportVerbosityOptions(command, 'print no progress and no notes: problems and the saved model only');
  addProjectOptions(command).action(async (flags: TrainFlags) => {
    const { runTrain } = await import('./run-train.js');
    const code = await runTrain(io, {
      location: toLocation(flags),
      ...(flags.out ? { out: flags.out } : {}),
      ...(flags.fixedModelName ? { fixedName: flags.fixedModelName } : {}),
      ...(flags.rasaVersion ? { rasaVersion: flags.rasaVersion } : {}),
      force: flags.force ?? false,
      quiet: flags.quiet === true,
      validation: flags.skipValidation
        ? 'skip'
        : flags.failOnValidationWarnings
          ? 'fail-on-warnings'
          : 'errors',
    });
    io.setExitCode(code);
  });
  return command;
}
