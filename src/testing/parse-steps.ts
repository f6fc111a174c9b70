import type {
  E2EAssertion,
  E2EAssertionType,
  ExpectedButton,
  FlowIdsOperator,
  SlotExpectation,
} from './e2e-model.js';
import { ASSERTION_TYPES } from './e2e-model.js';
import { isRecord } from './yaml-source.js';
import type { YamlPath, YamlSource } from './yaml-source.js';

export interface ParseContext {
  readonly yaml: YamlSource;
}

/** A part of a test file that cannot be read; caught per test case and turned into a problem. */
export class ParseFailure extends Error {
  readonly line: number;

  constructor(line: number, message: string) {
    super(message);
    this.name = 'ParseFailure';
    this.line = line;
  }
}

/**
 * A slot list: in a step, items are a slot name or a `name: value` map; in an assertion, `{name, value?}`
 * maps. Each item keeps its own line.
 */
export function parseSlotList(
  context: ParseContext,
  raw: unknown,
  path: YamlPath,
  form: 'step' | 'assertion',
): SlotExpectation[] {
  if (!Array.isArray(raw)) throw new ParseFailure(context.yaml.lineAt(path), 'Expected a list of slots.');
  return raw.map((item, index) => {
    const line = context.yaml.lineAt([...path, index]);
    if (form === 'step' && typeof item === 'string') return { name: item, line, hasValue: false };
    if (form === 'step' && isRecord(item)) {
      const [entry] = Object.entries(item);
      if (entry) return { name: entry[0], line, hasValue: true, value: entry[1] };
    }
    if (form === 'assertion' && isRecord(item) && typeof item.name === 'string') {
      return 'value' in item
        ? { name: item.name, line, hasValue: true, value: item.value }
        : { name: item.name, line, hasValue: false };
    }
    const expected = form === 'step' ? 'a slot name or a `slot: value` map' : 'a map {name, value}';
    throw new ParseFailure(line, `Each slot must be ${expected}.`);
  });
}

export function parseAssertion(context: ParseContext, raw: unknown, path: YamlPath): E2EAssertion {
  const line = context.yaml.lineAt(path);
  const entries = isRecord(raw) ? Object.entries(raw) : [];
  const [entry] = entries;
  if (entries.length !== 1 || !entry) {
    throw new ParseFailure(line, 'An assertion is a one-key map, e.g. `- flow_started: transfer_money`.');
  }
  const [type, value] = entry;
  if (!(ASSERTION_TYPES as readonly string[]).includes(type)) {
    throw new ParseFailure(line, `Unknown assertion type '${type}'.`);
  }
  const reader = new AssertionReader(context, line, type as E2EAssertionType, value, [...path, type]);
  return reader.read();
}

class AssertionReader {
  constructor(
    private readonly context: ParseContext,
    private readonly line: number,
    private readonly type: E2EAssertionType,
    private readonly value: unknown,
    private readonly path: YamlPath,
  ) {}

  read(): E2EAssertion {
    const { line } = this;
    switch (this.type) {
      case 'flow_started':
        if (typeof this.value === 'string') return { type: this.type, line, flowId: this.value, flowIds: [] };
        return { type: this.type, line, ...this.selector() };
      case 'pattern_clarification_contains':
        if (Array.isArray(this.value)) {
          return { type: this.type, line, flowNames: this.strings(this.value, 'flow'), flowIds: [] };
        }
        return { type: this.type, line, flowNames: [], ...this.selector() };
      case 'flow_completed':
      case 'flow_cancelled': {
        const map = this.map();
        const flowStepId = this.optionalString(map, 'flow_step_id');
        return {
          type: this.type,
          line,
          flowId: this.requiredString(map, 'flow_id'),
          ...(flowStepId === undefined ? {} : { flowStepId }),
        };
      }
      case 'action_executed':
        if (typeof this.value !== 'string') this.fail('must name an action');
        return { type: this.type, line, actionName: this.value as string };
      case 'slot_was_set':
      case 'slot_was_not_set':
        return {
          type: this.type,
          line,
          slots: parseSlotList(this.context, this.value, this.path, 'assertion'),
        };
      case 'bot_uttered':
      case 'bot_did_not_utter':
        return { type: this.type, line, ...this.utterance() };
      case 'generative_response_is_relevant':
      case 'generative_response_is_grounded':
        return { type: this.type, line, ...this.generative() };
    }
  }

  private selector(): { operator: FlowIdsOperator; flowIds: string[] } {
    const map = this.map();
    const operator = String(map.operator ?? 'any').toLowerCase();
    if (operator !== 'any' && operator !== 'all') this.fail("has an operator that is not 'any' or 'all'");
    const flowIds = map.flow_ids;
    if (!Array.isArray(flowIds)) this.fail('needs a list of flow_ids');
    return { operator: operator as FlowIdsOperator, flowIds: this.strings(flowIds as unknown[], 'flow id') };
  }

  private utterance(): { utterName?: string; textMatches?: string; buttons: ExpectedButton[] } {
    const map = this.map();
    const utterName = this.optionalString(map, 'utter_name');
    const textMatches = this.optionalString(map, 'text_matches');
    const rawButtons = map.buttons ?? [];
    if (!Array.isArray(rawButtons)) this.fail('has buttons that are not a list');
    const buttons = (rawButtons as unknown[]).map((button) => {
      if (!isRecord(button) || typeof button.title !== 'string') this.fail('has a button without a title');
      const { title, payload } = button as { title: string; payload?: unknown };
      return payload === undefined || payload === null ? { title } : { title, payload: String(payload) };
    });
    if (utterName === undefined && textMatches === undefined && buttons.length === 0) {
      this.fail('is empty: give at least one of utter_name, text_matches, buttons');
    }
    return {
      ...(utterName === undefined ? {} : { utterName }),
      ...(textMatches === undefined ? {} : { textMatches }),
      buttons,
    };
  }

  private generative(): {
    threshold: number;
    utterName?: string;
    utterSource?: string;
    groundTruth?: string;
  } {
    const map = this.map();
    const threshold = map.threshold ?? 0.5;
    if (typeof threshold !== 'number') this.fail('needs a numeric threshold');
    const optional = {
      utterName: this.optionalString(map, 'utter_name'),
      utterSource: this.optionalString(map, 'utter_source'),
      groundTruth: this.optionalString(map, 'ground_truth'),
    };
    const present = Object.entries(optional).filter(([, value]) => value !== undefined);
    return { threshold: threshold as number, ...Object.fromEntries(present) };
  }

  private map(): Record<string, unknown> {
    if (!isRecord(this.value)) this.fail('must be a map');
    return this.value as Record<string, unknown>;
  }

  private requiredString(map: Record<string, unknown>, key: string): string {
    const value = map[key];
    if (typeof value !== 'string') this.fail(`needs a \`${key}\``);
    return value as string;
  }

  private optionalString(map: Record<string, unknown>, key: string): string | undefined {
    const value = map[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') this.fail(`has a \`${key}\` that is not a string`);
    return value as string;
  }

  private strings(values: unknown[], what: string): string[] {
    if (!values.every((item) => typeof item === 'string')) this.fail(`has a ${what} that is not a string`);
    return values as string[];
  }

  private fail(problem: string): never {
    throw new ParseFailure(this.line, `The '${this.type}' assertion ${problem}.`);
  }
}
