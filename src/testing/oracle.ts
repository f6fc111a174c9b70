import { readFileSync } from 'node:fs';
import { AppError } from '../core/errors.js';
import type { SerializedCommand } from '../core/events/types.js';
import type { SlotValues } from './e2e-model.js';
import { isRecord, YamlSource } from './yaml-source.js';

/**
 * A command oracle (`oracles/<project>.commands.yml`): per test case and user turn, the commands an LLM
 * command generator is expected to produce, so that e2e tests can run without an LLM.
 */
export type OracleTurn =
  | { readonly user: string; readonly commands: readonly SerializedCommand[] }
  /** a `/...` message that bypasses the command generator: send it as plain text */
  | { readonly user: string; readonly payload: true };

export interface OracleTestEntry {
  /** the test file, relative to the project root, with `/` separators */
  readonly file: string;
  readonly testCase: string;
  readonly deterministicWithOracle: boolean;
  /** slots to set after the session start (same mechanism as e2e fixtures) */
  readonly fixturesNeeded: SlotValues;
  readonly note?: string;
  /** one per user step, in order */
  readonly turns: readonly OracleTurn[];
}

export class CommandOracle {
  readonly project: string | undefined;
  readonly entries: readonly OracleTestEntry[];
  private readonly byKey: ReadonlyMap<string, OracleTestEntry>;

  constructor(options: { project?: string; entries: readonly OracleTestEntry[] }) {
    this.project = options.project;
    this.entries = options.entries;
    this.byKey = new Map(options.entries.map((entry) => [key(entry.file, entry.testCase), entry]));
  }

  entry(file: string, testCase: string): OracleTestEntry | undefined {
    return this.byKey.get(key(file, testCase));
  }

  /** The oracle for a user turn (0-based among the test case's user steps). */
  turn(file: string, testCase: string, userTurnIndex: number): OracleTurn | undefined {
    return this.entry(file, testCase)?.turns[userTurnIndex];
  }

  fixturesNeeded(file: string, testCase: string): SlotValues {
    return this.entry(file, testCase)?.fixturesNeeded ?? {};
  }

  deterministicWithOracle(file: string, testCase: string): boolean | undefined {
    return this.entry(file, testCase)?.deterministicWithOracle;
  }
}

/** `tests\a.yml` and `./tests/a.yml` both become `tests/a.yml`. */
export function normaliseTestPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

function key(file: string, testCase: string): string {
  return `${normaliseTestPath(file)}\u0000${testCase}`;
}

export function readOracleFile(path: string): CommandOracle {
  return parseOracle(readFileSync(path, 'utf8'), path);
}

/** Parses an oracle file; a malformed one is a usage error (AppError PROJECT_INVALID) naming the line. */
export function parseOracle(text: string, source = 'oracle'): CommandOracle {
  const yaml = new YamlSource(text);
  const invalid = (line: number, message: string): AppError =>
    new AppError({ code: 'PROJECT_INVALID', message: `${source}:${line}: ${message}` });
  const [syntax] = yaml.errors;
  if (syntax) throw invalid(syntax.line, syntax.message);
  const data = yaml.data;
  if (!isRecord(data) || !Array.isArray(data.tests)) throw invalid(1, 'An oracle file needs a `tests` list.');
  const entries = data.tests.map((raw, index): OracleTestEntry => {
    const line = yaml.lineAt(['tests', index]);
    if (!isRecord(raw) || typeof raw.file !== 'string' || typeof raw.test_case !== 'string') {
      throw invalid(line, 'Each test needs a `file` and a `test_case`.');
    }
    if (!Array.isArray(raw.turns)) throw invalid(line, `Test '${raw.test_case}' needs a list of turns.`);
    const fixtures = raw.fixtures_needed ?? {};
    if (!isRecord(fixtures)) throw invalid(line, '`fixtures_needed` must be a map of slot values.');
    const turns = raw.turns.map((turn, turnIndex) => {
      const parsed = parseTurn(turn);
      if (typeof parsed === 'string')
        throw invalid(yaml.lineAt(['tests', index, 'turns', turnIndex]), parsed);
      return parsed;
    });
    return {
      file: normaliseTestPath(raw.file),
      testCase: raw.test_case,
      deterministicWithOracle: raw.deterministic_with_oracle !== false,
      fixturesNeeded: fixtures,
      ...(typeof raw.note === 'string' ? { note: raw.note } : {}),
      turns,
    };
  });
  return new CommandOracle({
    ...(typeof data.project === 'string' ? { project: data.project } : {}),
    entries,
  });
}

/** A turn, or the problem with it. */
function parseTurn(raw: unknown): OracleTurn | string {
  if (!isRecord(raw) || typeof raw.user !== 'string') return 'Each turn needs the `user` text.';
  if (raw.commands === 'payload') return { user: raw.user, payload: true };
  const commands = raw.commands ?? [];
  if (!Array.isArray(commands)) return '`commands` must be a list of commands or `payload`.';
  if (!commands.every((command) => isRecord(command) && typeof command.command === 'string')) {
    return 'Each command needs a `command` name.';
  }
  return { user: raw.user, commands: commands as SerializedCommand[] };
}
