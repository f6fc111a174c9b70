import type { Event, SerializedCommand } from '../core/events/types.js';
import type { E2ETestCase, E2ETestFile, SlotValues, StubbedAction } from './e2e-model.js';

/** One user message as the runner sends it. */
export interface DriverMessage {
  readonly text: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** commands to use instead of understanding the text (from a command oracle) */
  readonly commands?: readonly SerializedCommand[];
}

/**
 * The engine port the e2e runner drives: one conversation. Whatever runs the assistant (the in-process
 * agent, a server over HTTP) implements it; the runner only reads the events.
 */
export interface ConversationDriver {
  /** Handles one user message; resolves to the events this turn appended, the user event first. */
  sendMessage(input: DriverMessage): Promise<readonly Event[]>;
  /** Sets slots as e2e fixtures do: after the session start, before the first message. */
  setSlots(slots: SlotValues): Promise<void>;
  /** Every event of the conversation so far. */
  transcript(): readonly Event[];
  /** Releases what the conversation holds; called once the test case is done. */
  close?(): Promise<void>;
}

/** Custom actions stubbed for one test case: action name → what it returns. */
export type StubActions = ReadonlyMap<string, StubbedAction>;

export interface DriverStartOptions {
  readonly testCase: E2ETestCase;
  readonly file: E2ETestFile;
  readonly stubs: StubActions;
  readonly conversationId: string;
}

export interface DriverFactory {
  /** Starts a fresh conversation whose session has started (session start events are in its transcript). */
  start(options: DriverStartOptions): Promise<ConversationDriver>;
}

const CASE_SEPARATOR = '::';

/**
 * The stubs that apply to a test case: the file's `<action>` stubs, overridden by its
 * `<test_case>::<action>` stubs. As in Rasa, the test case part may write spaces as underscores.
 */
export function resolveStubs(file: E2ETestFile, testCase: E2ETestCase): StubActions {
  const caseIds = new Set([testCase.name, testCase.name.replace(/ /g, '_')]);
  const plain = new Map<string, StubbedAction>();
  const scoped = new Map<string, StubbedAction>();
  for (const [key, stub] of file.stubCustomActions) {
    const separator = key.indexOf(CASE_SEPARATOR);
    if (separator < 0) {
      plain.set(key, stub);
    } else if (caseIds.has(key.slice(0, separator))) {
      scoped.set(key.slice(separator + CASE_SEPARATOR.length), stub);
    }
  }
  return new Map([...plain, ...scoped]);
}
