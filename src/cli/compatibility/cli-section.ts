import type { Command } from 'commander';
import { buildProgram } from '../main.js';
import { row } from './types.js';
import type { FeatureRow, Section } from './types.js';

/**
 * Rasa's commands (Rasa Pro 3.7–3.17) and the flags a CALM project uses with them. Flags for remote
 * storage, syslog and Rasa Studio are left out: they have no Parley counterpart to look for.
 */
const RASA_CLI: Readonly<Record<string, readonly string[]>> = {
  'data validate': ['--domain', '--data', '--config', '--fail-on-warnings'],
  train: [
    '--domain',
    '--data',
    '--config',
    '--out',
    '--fixed-model-name',
    '--force',
    '--endpoints',
    '--skip-validation',
  ],
  run: [
    '--model',
    '--endpoints',
    '--credentials',
    '--connector',
    '--port',
    '--interface',
    '--enable-api',
    '--auth-token',
    '--cors',
    '--jwt-secret',
    '--jwt-method',
    '--jwt-private-key',
    '--ssl-certificate',
    '--ssl-keyfile',
    '--ssl-ca-file',
    '--ssl-password',
  ],
  shell: ['--model', '--endpoints', '--conversation-id'],
  'test e2e': [
    '--model',
    '--endpoints',
    '--fail-fast',
    '--e2e-results',
    '--coverage-report',
    '--coverage-output-path',
  ],
  init: ['--no-prompt', '--init-dir', '--template'],
  inspect: [],
  interactive: [],
  'run actions': [],
  'data split': [],
  'data convert': [],
  visualize: [],
  export: [],
};

/** Global flags every Rasa command takes. */
const RASA_LOG_FLAGS = ['--verbose', '--debug', '--quiet'];

const MISSING_COMMAND_NOTES: Readonly<Record<string, string>> = {
  inspect: 'the web widget on the socket.io channel and the HTTP API',
  interactive: 'legacy NLU-based training; not planned',
  'run actions': 'custom actions are TypeScript modules (actions_module) or any Rasa SDK action server',
  'data split': 'NLU data splitting: not provided',
  'data convert': 'format conversion: not provided',
  visualize: 'story graphs: not provided',
  export: 'event broker export: not provided',
};

export function cliSection(): Section {
  const program = buildProgram({
    stdout: () => undefined,
    stderr: () => undefined,
    setExitCode: () => undefined,
    stderrIsTTY: false,
  });
  const rows: FeatureRow[] = [];
  for (const [path, flags] of Object.entries(RASA_CLI)) {
    const command = find(program, path.split(' '));
    if (!command) {
      rows.push(row(`\`rasa ${path}\``, 'refused', MISSING_COMMAND_NOTES[path] ?? ''));
      continue;
    }
    rows.push(row(`\`rasa ${path}\``, 'supported', `\`parley ${path}\``));
    const longFlags = new Set(command.options.map((option) => option.long));
    for (const flag of [...flags, ...RASA_LOG_FLAGS])
      rows.push(row(`\`rasa ${path} ${flag}\``, longFlags.has(flag) ? 'supported' : 'refused'));
  }
  return {
    title: 'Command line',
    intro:
      "`parley` takes Rasa's commands and flags; a flag it does not have is refused with a usage error (exit 2).",
    rows,
  };
}

function find(command: Command, path: readonly string[]): Command | undefined {
  const [head, ...rest] = path;
  if (head === undefined) return command;
  const child = command.commands.find((candidate) => candidate.name() === head);
  return child ? find(child, rest) : undefined;
}
