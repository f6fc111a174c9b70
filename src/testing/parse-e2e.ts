import type { Section } from '../project/load/read-project.js';
import { parseAssertion, parseSlotList, ParseFailure } from './parse-steps.js';
import type { ParseContext } from './parse-steps.js';
import type {
  E2EParseProblem,
  E2EStep,
  E2ETestCase,
  E2ETestFile,
  SlotValues,
  StubbedAction,
} from './e2e-model.js';
import { isRecord, YamlSource } from './yaml-source.js';
import type { YamlPath } from './yaml-source.js';

export interface E2ESourceText {
  readonly path: string;
  readonly text: string;
}

/**
 * Reads an e2e test file. Never throws: what cannot be read is reported in `problems` with its line, and a
 * test case with a problem is left out (the project loader has already reported schema problems in detail).
 */
export function parseE2ETestFile(source: E2ESourceText): E2ETestFile {
  const yaml = new YamlSource(source.text);
  const problems: E2EParseProblem[] = [...yaml.errors];
  const context: ParseContext = { yaml };
  const data = isRecord(yaml.data) ? yaml.data : {};
  // an empty file, or one of only comments, holds no test case and nothing wrong
  const empty = yaml.data === null || yaml.data === undefined;
  if (yaml.errors.length === 0 && !empty && !isRecord(yaml.data)) {
    problems.push({ line: 1, message: 'An e2e test file must be a map with a `test_cases` key.' });
  }
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ParseFailure)) throw error;
      problems.push({ line: error.line, message: error.message });
      return undefined;
    }
  };
  const testCases = listAt(data, 'test_cases').flatMap((raw, index) => {
    const parsed = attempt(() => parseTestCase(context, raw, ['test_cases', index]));
    return parsed ? [parsed] : [];
  });
  return {
    path: source.path,
    fixtures: attempt(() => parseFixtures(context, data)) ?? new Map(),
    metadata: attempt(() => parseMetadata(context, data)) ?? new Map(),
    stubCustomActions: attempt(() => parseStubs(context, data)) ?? new Map(),
    testCases,
    problems,
  };
}

/** Reads the e2e test files the project loader found (`project.tests`). */
export function parseE2ESections(sections: readonly Section[]): E2ETestFile[] {
  return sections.map((section) => parseE2ETestFile({ path: section.file.path, text: section.file.text }));
}

function listAt(data: Record<string, unknown>, key: string): unknown[] {
  const value = data[key];
  return Array.isArray(value) ? value : [];
}

function parseTestCase(context: ParseContext, raw: unknown, path: YamlPath): E2ETestCase {
  const line = context.yaml.lineAt(path);
  if (!isRecord(raw) || typeof raw.test_case !== 'string') {
    throw new ParseFailure(line, 'A test case needs a `test_case` name.');
  }
  const name = raw.test_case;
  if (!Array.isArray(raw.steps)) throw new ParseFailure(line, `Test case '${name}' has no list of steps.`);
  const fixtures = raw.fixtures ?? [];
  if (!Array.isArray(fixtures) || !fixtures.every((item) => typeof item === 'string')) {
    throw new ParseFailure(line, `The fixtures of test case '${name}' must be a list of fixture names.`);
  }
  if (raw.metadata !== undefined && typeof raw.metadata !== 'string') {
    throw new ParseFailure(line, `The metadata of test case '${name}' must be a metadata name.`);
  }
  const steps = raw.steps.map((step, index) => parseStep(context, step, [...path, 'steps', index]));
  return {
    name,
    line,
    fixtures: fixtures as string[],
    ...(raw.metadata === undefined ? {} : { metadata: raw.metadata }),
    steps,
  };
}

function parseStep(context: ParseContext, raw: unknown, path: YamlPath): E2EStep {
  const line = context.yaml.lineAt(path);
  if (!isRecord(raw)) throw new ParseFailure(line, 'A test step must be a map.');
  const text = (key: string): string => {
    const value = raw[key];
    if (typeof value !== 'string') throw new ParseFailure(line, `The \`${key}\` of a step must be a string.`);
    return value;
  };
  if ('user' in raw) {
    const assertions = raw.assertions;
    if (assertions !== undefined && !Array.isArray(assertions)) {
      throw new ParseFailure(line, '`assertions` must be a list.');
    }
    if (raw.metadata !== undefined && typeof raw.metadata !== 'string') {
      throw new ParseFailure(line, 'The `metadata` of a user step must be a metadata name.');
    }
    return {
      kind: 'user',
      line,
      raw,
      text: text('user').trim(),
      ...(raw.metadata === undefined ? {} : { metadata: raw.metadata }),
      ...(assertions === undefined
        ? {}
        : {
            assertions: assertions.map((item, index) =>
              parseAssertion(context, item, [...path, 'assertions', index]),
            ),
          }),
      assertionOrderEnabled: raw.assertion_order_enabled === true,
    };
  }
  if ('bot' in raw) return { kind: 'bot', line, raw, text: text('bot').trim() };
  if ('utter' in raw) return { kind: 'utter', line, raw, name: text('utter') };
  for (const kind of ['slot_was_set', 'slot_was_not_set'] as const) {
    if (kind in raw) {
      return { kind, line, raw, slots: parseSlotList(context, raw[kind], [...path, kind], 'step') };
    }
  }
  throw new ParseFailure(line, 'A test step needs one of user, bot, utter, slot_was_set, slot_was_not_set.');
}

/** `fixtures: [{name: [{slot: value}, ...]}]` */
function parseFixtures(context: ParseContext, data: Record<string, unknown>): Map<string, SlotValues> {
  const fixtures = new Map<string, SlotValues>();
  listAt(data, 'fixtures').forEach((item, index) => {
    const line = context.yaml.lineAt(['fixtures', index]);
    for (const [name, slots] of namedEntries(item, line, 'fixture')) {
      if (!Array.isArray(slots) || !slots.every(isRecord)) {
        throw new ParseFailure(line, `Fixture '${name}' must be a list of \`slot: value\` maps.`);
      }
      if (!fixtures.has(name)) fixtures.set(name, Object.assign({}, ...slots) as SlotValues);
    }
  });
  return fixtures;
}

/** `metadata: [{name: {key: value}}]` */
function parseMetadata(
  context: ParseContext,
  data: Record<string, unknown>,
): Map<string, Readonly<Record<string, unknown>>> {
  const metadata = new Map<string, Readonly<Record<string, unknown>>>();
  listAt(data, 'metadata').forEach((item, index) => {
    const line = context.yaml.lineAt(['metadata', index]);
    for (const [name, values] of namedEntries(item, line, 'metadata')) {
      if (!isRecord(values)) throw new ParseFailure(line, `Metadata '${name}' must be a map.`);
      if (!metadata.has(name)) metadata.set(name, values);
    }
  });
  return metadata;
}

function namedEntries(item: unknown, line: number, what: string): [string, unknown][] {
  if (!isRecord(item))
    throw new ParseFailure(line, `Each ${what} must be a map from its name to its content.`);
  return Object.entries(item);
}

function parseStubs(context: ParseContext, data: Record<string, unknown>): Map<string, StubbedAction> {
  const stubs = new Map<string, StubbedAction>();
  const section = data.stub_custom_actions ?? {};
  if (!isRecord(section)) {
    throw new ParseFailure(
      context.yaml.lineAt(['stub_custom_actions']),
      '`stub_custom_actions` must be a map.',
    );
  }
  for (const [key, stub] of Object.entries(section)) {
    const line = context.yaml.lineAt(['stub_custom_actions', key]);
    const content = stub ?? {};
    if (!isRecord(content)) throw new ParseFailure(line, `The stub of '${key}' must be a map.`);
    const list = (name: string): unknown[] => {
      const value = content[name] ?? [];
      if (!Array.isArray(value)) throw new ParseFailure(line, `The ${name} of stub '${key}' must be a list.`);
      return value;
    };
    stubs.set(key, { events: list('events'), responses: list('responses') });
  }
  return stubs;
}
