import type { Event, SerializedCommand } from '../../src/core/events/types.js';
import type {
  ConversationDriver,
  DriverFactory,
  DriverMessage,
  DriverStartOptions,
  E2EResult,
  E2ETestFile,
  RunE2EOptions,
  SlotValues,
} from '../../src/testing/index.js';
import { parseE2ETestFile, runE2E } from '../../src/testing/index.js';

/** Strips the common indentation of an inline YAML block. */
export function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = strings.reduce(
    (all, part, index) => all + part + (index < values.length ? String(values[index]) : ''),
    '',
  );
  const lines = text.replace(/^\n/, '').split('\n');
  const indents = lines.filter((line) => line.trim()).map((line) => line.length - line.trimStart().length);
  const indent = Math.min(...indents);
  return lines.map((line) => line.slice(indent)).join('\n');
}

export function testFile(text: string, path = 'project/tests/cases.yml'): E2ETestFile {
  return parseE2ETestFile({ path, text });
}

export const user = (text: string, commands?: readonly SerializedCommand[]): Event => ({
  event: 'user',
  timestamp: 0,
  text,
  parse_data: { intent: { name: null, confidence: 1 }, entities: [], ...(commands ? { commands } : {}) },
});

export const bot = (
  text: string,
  utterAction?: string,
  buttons?: readonly { title: string; payload: string }[],
): Event => ({
  event: 'bot',
  timestamp: 0,
  text,
  data: buttons ? { buttons } : {},
  metadata: utterAction ? { utter_action: utterAction } : {},
});

export const action = (name: string): Event => ({ event: 'action', timestamp: 0, name });
export const slot = (name: string, value: unknown): Event => ({ event: 'slot', timestamp: 0, name, value });
export const flowStarted = (flowId: string, metadata?: Record<string, unknown>): Event => ({
  event: 'flow_started',
  timestamp: 0,
  flow_id: flowId,
  ...(metadata ? { metadata } : {}),
});
export const flowCompleted = (flowId: string, stepId: string): Event => ({
  event: 'flow_completed',
  timestamp: 0,
  flow_id: flowId,
  step_id: stepId,
});
export const flowCancelled = (flowId: string, stepId: string): Event => ({
  event: 'flow_cancelled',
  timestamp: 0,
  flow_id: flowId,
  step_id: stepId,
});
export const sessionStarted: Event = { event: 'session_started', timestamp: 0 };
export const listen = action('action_listen');

/** What the scripted bot does: events after the user event, by message text. */
export interface Script {
  readonly sessionStart?: readonly Event[];
  readonly replies?: Readonly<Record<string, readonly Event[]>>;
  /** thrown when this text is sent */
  readonly failOn?: string;
}

/** A test double of the engine: returns canned events per user message and records what it was asked. */
export class ScriptedDriver implements ConversationDriver {
  readonly messages: DriverMessage[] = [];
  readonly slotsSet: SlotValues[] = [];
  closed = false;
  private readonly events: Event[];

  constructor(
    readonly options: DriverStartOptions,
    private readonly script: Script,
  ) {
    this.events = [...(script.sessionStart ?? [action('action_session_start'), sessionStarted, listen])];
  }

  async sendMessage(input: DriverMessage): Promise<readonly Event[]> {
    this.messages.push(input);
    if (input.text === this.script.failOn) throw new Error('engine exploded');
    const turn = [user(input.text, input.commands), ...(this.script.replies?.[input.text] ?? []), listen];
    this.events.push(...turn);
    return turn;
  }

  async setSlots(slots: SlotValues): Promise<void> {
    this.slotsSet.push(slots);
    this.events.push(...Object.entries(slots).map(([name, value]) => slot(name, value)));
  }

  transcript(): readonly Event[] {
    return this.events;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

export class ScriptedDriverFactory implements DriverFactory {
  readonly drivers: ScriptedDriver[] = [];

  constructor(private readonly script: Script | ((options: DriverStartOptions) => Script)) {}

  async start(options: DriverStartOptions): Promise<ConversationDriver> {
    const script = typeof this.script === 'function' ? this.script(options) : this.script;
    const driver = new ScriptedDriver(options, script);
    this.drivers.push(driver);
    return driver;
  }
}

/** Runs the test cases of one inline file against a scripted bot. */
export async function run(
  text: string,
  script: Script,
  options: Partial<RunE2EOptions> = {},
): Promise<{ results: E2EResult[]; factory: ScriptedDriverFactory; file: E2ETestFile }> {
  const file = testFile(text);
  const factory = new ScriptedDriverFactory(script);
  const results = await runE2E({ files: [file], driverFactory: factory, projectRoot: 'project', ...options });
  return { results, factory, file };
}

/** The only result of a run, asserting there is exactly one. */
export function only(results: readonly E2EResult[]): E2EResult {
  if (results.length !== 1) throw new Error(`expected one result, got ${results.length}`);
  return results[0] as E2EResult;
}
