import type { Command } from 'commander';
import { cliSection } from './compatibility/cli-section.js';
import { buildProgram } from './main.js';

/**
 * The command table of docs/rasa-migration.md: every `rasa` command and flag with its `parley`
 * counterpart. The commands and flags a CALM project uses, and whether Parley has them, come from the
 * same source as docs/compatibility.md (cliSection, which reads the real program); this adds Rasa's
 * other commands and says why each missing one is missing.
 */

/** Why a Rasa flag has no Parley counterpart, by flag. */
const FLAG_REASONS: Readonly<Record<string, string>> = {};

/** What differs in a command Parley has, by command. */
const COMMAND_NOTES: Readonly<Record<string, string>> = {
  'data validate': 'every problem at once with a code (docs/diagnostics.md); `parley validate` is an alias',
  train:
    'writes a Parley model archive (Rasa models cannot be loaded: retrain); skipped when nothing changed',
  run: 'channels, HTTP API and A2A on one port; `-p` is the port, the assistant folder is `--project`',
  shell: 'runs in process and serves no port; `-p` is `--project` here',
  'test e2e': "Rasa's test format and report; `--command-oracle` replays an LLM's commands",
};

/** Rasa commands cliSection does not list: `[rasa command, the parley command it would be, why not]` */
const OTHER_COMMANDS: readonly (readonly [string, string, string])[] = [
  ['train nlu', 'train', '`parley train` trains the NLU pipeline with the rest'],
  ['train core', 'train', 'no Core model: flows need no training; `parley train` compiles them'],
  [
    'test',
    'test e2e',
    'NLU and story tests: `parley nlu evaluate` scores the intent classifier, `parley test e2e` runs conversations',
  ],
  ['data split nlu', 'data split', 'not provided'],
  ['data split stories', 'data split', 'not provided'],
  ['data convert e2e', 'data convert', 'not provided'],
  ['data migrate', 'data migrate', 'Rasa 2 domains: not read'],
  ['evaluate markers', 'evaluate', 'markers are not provided'],
  ['marker upload', 'marker', 'markers are not provided'],
  ['llm finetune prepare-data', 'llm', 'no fine-tuning data preparation'],
  ['license', 'license', 'Parley is Apache-2.0 and needs no licence key'],
  ['studio', 'studio', 'Rasa Studio is a Rasa product'],
  ['x', 'x', 'Rasa X is a Rasa product'],
];

/** Flags every Rasa command takes that Parley does not, and why. */
const OTHER_GLOBAL_FLAGS: readonly (readonly [string, string])[] = [
  ['--logging-config-file', 'logs are JSON lines on stderr; `--log-level` and `LOG_LEVEL` set the level'],
  ['--log-file', 'logs go to stderr; redirect them'],
];

export interface MigrationRow {
  readonly rasa: string;
  readonly parley: string;
  readonly note: string;
}

function program(): Command {
  return buildProgram({
    stdout: () => undefined,
    stderr: () => undefined,
    setExitCode: () => undefined,
    stderrIsTTY: false,
  });
}

function find(command: Command, path: readonly string[]): Command | undefined {
  const [head, ...rest] = path;
  if (head === undefined) return command;
  const child = command.commands.find((candidate) => candidate.name() === head);
  return child ? find(child, rest) : undefined;
}

const FEATURE = /^`rasa (.+?)( --[\w-]+)?`$/;

function fromCompatibility(): MigrationRow[] {
  return cliSection().rows.map((entry) => {
    const match = FEATURE.exec(entry.feature);
    const path = match?.[1] ?? entry.feature;
    const flag = match?.[2]?.trim();
    const rasa = `\`rasa ${path}${flag ? ` ${flag}` : ''}\``;
    if (entry.support !== 'supported') {
      const why = flag ? FLAG_REASONS[flag] : entry.note;
      return { rasa, parley: 'not supported', note: why ?? '' };
    }
    const note = flag ? '' : (COMMAND_NOTES[path] ?? '');
    return { rasa, parley: `\`parley ${path}${flag ? ` ${flag}` : ''}\``, note };
  });
}

function otherCommands(root: Command): MigrationRow[] {
  return OTHER_COMMANDS.map(([rasa, parley, why]) => {
    const counterpart = find(root, parley.split(' '));
    const same = counterpart !== undefined && parley === rasa;
    return {
      rasa: `\`rasa ${rasa}\``,
      parley: same ? `\`parley ${parley}\`` : counterpart ? `see \`parley ${parley}\`` : 'not supported',
      note: why,
    };
  });
}

function globalFlags(root: Command): MigrationRow[] {
  const run = find(root, ['run']);
  const version = root.options.some((option) => option.long === '--version');
  const versionRow: MigrationRow = {
    rasa: '`rasa --version`',
    parley: version ? '`parley --version`' : 'not supported',
    note: "Parley's version",
  };
  return [versionRow, ...globalFlagRows(run)];
}

function globalFlagRows(run: Command | undefined): MigrationRow[] {
  return OTHER_GLOBAL_FLAGS.map(([flag, why]) => {
    const has = run?.options.some((option) => option.long === flag) ?? false;
    return {
      rasa: `\`rasa <command> ${flag}\``,
      parley: has ? `\`parley <command> ${flag}\`` : 'not supported',
      note: why,
    };
  });
}

/** Parley's commands that have no Rasa counterpart, read from the program. */
function parleyOnly(root: Command, rows: readonly MigrationRow[]): MigrationRow[] {
  const named = new Set(rows.map((entry) => entry.parley));
  const paths: string[] = [];
  const walk = (command: Command, prefix: string): void => {
    for (const child of command.commands) {
      const path = prefix ? `${prefix} ${child.name()}` : child.name();
      if (child.commands.length > 0) walk(child, path);
      else paths.push(path);
    }
  };
  walk(root, '');
  return paths
    .filter((path) => path !== 'help' && !named.has(`\`parley ${path}\``))
    .map((path) => ({
      rasa: '—',
      parley: `\`parley ${path}\``,
      note: find(root, path.split(' '))?.description() ?? '',
    }));
}

export function migrationRows(): MigrationRow[] {
  const root = program();
  const rows = [...fromCompatibility(), ...otherCommands(root), ...globalFlags(root)];
  return [...rows, ...parleyOnly(root, rows)];
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The generated table, between the markers of docs/rasa-migration.md. */
export function renderMigrationTable(): string {
  return [
    '| Rasa | Parley | note |',
    '| --- | --- | --- |',
    ...migrationRows().map((entry) => `| ${entry.rasa} | ${entry.parley} | ${cell(entry.note)} |`),
  ].join('\n');
}

export const TABLE_START = '<!-- migration-cli-table: generated by npm run docs:migration -->';
export const TABLE_END = '<!-- /migration-cli-table -->';

/** docs/rasa-migration.md with its generated table replaced by the current one. */
export function withMigrationTable(doc: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error('docs/rasa-migration.md lacks the table markers');
  return `${doc.slice(0, start + TABLE_START.length)}\n${renderMigrationTable()}\n${doc.slice(end)}`;
}
