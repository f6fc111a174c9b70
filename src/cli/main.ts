import { Command, CommanderError } from 'commander';
import { PARLEY_VERSION } from '../version.js';
import { diagramCommand } from './diagram-command.js';
import { initCommand } from './init-command.js';
import type { CliIo } from './io.js';
import { nluCommand } from './nlu-evaluate-command.js';
import { inspectCommand } from './inspect-command.js';
import { runCommand } from './run-command.js';
import { shellCommand } from './shell-command.js';
import { testCommand } from './test-command.js';
import { trainCommand } from './train-command.js';
import { validateCommand } from './validate-command.js';

const EXIT_USAGE = 2;

export function buildProgram(io: CliIo): Command {
  const version = PARLEY_VERSION;
  const program = new Command('parley')
    .description('Parley: Rasa CALM-style assistants with a built-in A2A server')
    .version(version)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  const data = new Command('data').description('commands for the assistant data').exitOverride();
  data.addCommand(validateCommand(io));
  data.addCommand(diagramCommand(io));
  program.addCommand(initCommand(io));
  program.addCommand(data);
  program.addCommand(validateCommand(io), {});
  program.addCommand(testCommand(io));
  program.addCommand(trainCommand(io));
  program.addCommand(nluCommand(io));
  program.addCommand(runCommand(io));
  program.addCommand(inspectCommand(io));
  program.addCommand(shellCommand(io));
  configureRecursively(program, io);
  return program;
}

/** Commander's defaults exit the process; every (sub)command reports through the CLI's io instead. */
function configureRecursively(command: Command, io: CliIo): void {
  command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  for (const child of command.commands) configureRecursively(child, io);
}

/** Runs the CLI and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  const program = buildProgram({ ...io, setExitCode: (code) => (exitCode = code) });
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_USAGE;
    io.stderr(`parley: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    setExitCode: (code) => (process.exitCode = code),
    stderrIsTTY: process.stderr.isTTY === true,
  };
}
