import { Command, Option } from 'commander';
import type { CliIo } from './io.js';
import { TEMPLATE_NAMES } from './init/templates.js';
import type { TemplateName } from './init/templates.js';

interface InitFlags {
  readonly template: TemplateName;
  readonly force?: boolean;
  readonly prompt?: boolean;
  readonly initDir?: string;
}

/**
 * `parley init [DIR]`: scaffolds a working assistant, as `rasa init` does. Never prompts
 * (`--no-prompt` is accepted for Rasa's scripts) and never overwrites a file without `--force`.
 */
export function initCommand(io: CliIo): Command {
  return new Command('init')
    .description('create a new assistant (domain, flows, NLU data, a custom action, e2e tests)')
    .argument('[dir]', 'the folder to create it in (created if missing)')
    .option('--init-dir <dir>', 'the folder to create it in, as in Rasa (same as DIR)')
    .addOption(
      new Option('--template <name>', 'default: a small order-status assistant; banking: Parley Bank')
        .choices(TEMPLATE_NAMES)
        .default('default'),
    )
    .option('--force', 'overwrite files that already exist')
    .option('--no-prompt', 'accepted for compatibility with rasa init; parley init never prompts')
    .action(async (dir: string | undefined, flags: InitFlags) => {
      const { runInit } = await import('./init/run-init.js');
      io.setExitCode(
        runInit(io, {
          dir: dir ?? flags.initDir ?? '.',
          template: flags.template,
          force: flags.force === true,
        }),
      );
    });
}
