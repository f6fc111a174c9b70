import { Command } from 'commander';
import type { CliIo } from './io.js';
import { addLoggingOptions, rasaVersionOption } from './common-options.js';
import { addProjectOptions } from './project-options.js';
import type { ShellFlags } from './shell/run-shell.js';

/**
 * `parley shell`: talk to the assistant in the terminal, in process (no server), with the project's
 * own understanding, stores and actions. Ends at end of input (Ctrl-D) or on `/stop`.
 */
export function shellCommand(io: CliIo): Command {
  const shell = new Command('shell')
    .description('chat with the assistant in the terminal (no server)')
    .option(
      '-m, --model <path>',
      'model archive, or folder of archives (newest); default: the newest model in models/ trained ' +
        'from the current project files, else one trained first',
    )
    .option('--conversation-id <id>', 'continue this stored conversation (default: a new id)')
    .addOption(rasaVersionOption('reproduce the default pattern behaviour of this Rasa version'));
  return addProjectOptions(addLoggingOptions(shell)).action(async (flags: ShellFlags) => {
    // loaded on use, so that the other commands start without the engine
    const { runShell } = await import('./shell/run-shell.js');
    io.setExitCode(await runShell(io, flags));
  });
}
