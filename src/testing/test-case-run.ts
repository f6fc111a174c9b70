import { checkAssertion } from './assertions.js';
import type { Definitions } from './definitions.js';
import type { ConversationDriver, DriverFactory, DriverMessage } from './driver.js';
import { resolveStubs } from './driver.js';
import type { E2ETestCase, E2ETestFile, SlotValues, UserStep } from './e2e-model.js';
import { usesAssertions } from './e2e-model.js';
import type { E2EFailure, E2EResult } from './e2e-result.js';
import { transcriptLines } from './event-lines.js';
import type { CommandOracle } from './oracle.js';
import { checkSteps } from './step-matching.js';
import { TurnLog } from './turn-log.js';

const ORDER_HINT =
  ' You have enabled assertion order, you should check the order in which the assertions are listed for this user step.';

export interface TestCaseRunOptions {
  readonly file: E2ETestFile;
  readonly testCase: E2ETestCase;
  /** the file relative to the project root, the oracle's key */
  readonly relativePath: string;
  readonly conversationId: string;
  readonly driverFactory: DriverFactory;
  readonly definitions: Definitions;
  readonly oracle?: CommandOracle;
  /** false: the oracle's commands are not sent, so the assistant understands the text itself */
  readonly replayOracleCommands?: boolean;
}

/** Where the conversation had to stop: the user step it could not send or the engine failed on. */
interface Stop {
  readonly stepIndex: number;
  readonly line: number;
  readonly message: string;
}

/**
 * One test case: start a conversation, apply fixtures, send every user message, then check the events
 * of each turn, by assertions or by the bot/utter/slot lines that follow the user step.
 */
export class TestCaseRun {
  constructor(private readonly options: TestCaseRunOptions) {}

  async run(): Promise<E2EResult> {
    const { file, testCase, conversationId, driverFactory } = this.options;
    let driver: ConversationDriver;
    try {
      driver = await driverFactory.start({
        testCase,
        file,
        stubs: resolveStubs(file, testCase),
        conversationId,
      });
    } catch (error) {
      return this.result(
        errorFailure(testCase.line, `The conversation could not start: ${describe(error)}`, []),
      );
    }
    try {
      const slots = this.fixtures();
      if (typeof slots === 'string') return this.result(errorFailure(testCase.line, slots, []));
      if (Object.keys(slots).length > 0) await driver.setSlots(slots);
      const log = new TurnLog(driver.transcript());
      const stop = await this.converse(driver, log);
      return this.result(this.evaluate(log, stop));
    } catch (error) {
      return this.result(errorFailure(testCase.line, `The test case could not run: ${describe(error)}`, []));
    } finally {
      await driver.close?.();
    }
  }

  private result(failure: E2EFailure | undefined): E2EResult {
    const { file, testCase } = this.options;
    const base = { file, testCase, passed: failure === undefined, usesAssertions: usesAssertions(testCase) };
    return failure ? { ...base, failure } : base;
  }

  /** The test case's fixtures, then the slots the oracle asks for; a message if a fixture is unknown. */
  private fixtures(): SlotValues | string {
    const { file, testCase, definitions, oracle, relativePath } = this.options;
    const slots: Record<string, unknown> = {};
    for (const name of testCase.fixtures) {
      const fixture = definitions.fixture(file, name);
      if (!fixture) return `Fixture '${name}' is not defined in any test file.`;
      Object.assign(slots, fixture);
    }
    return { ...slots, ...oracle?.fixturesNeeded(relativePath, testCase.name) };
  }

  private async converse(driver: ConversationDriver, log: TurnLog): Promise<Stop | undefined> {
    let userTurn = 0;
    for (const [stepIndex, step] of this.options.testCase.steps.entries()) {
      if (step.kind !== 'user') continue;
      const turnIndex = userTurn++;
      // Rasa skips a user step without text
      if (step.text === '') continue;
      const message = this.message(step, turnIndex);
      if (typeof message === 'string') return { stepIndex, line: step.line, message };
      try {
        log.record(stepIndex, await driver.sendMessage(message));
      } catch (error) {
        const failed = `The assistant failed to handle the message '${step.text}': ${describe(error)}`;
        return { stepIndex, line: step.line, message: failed };
      }
    }
    return undefined;
  }

  /** The message to send for a user step; a message explaining the problem if it cannot be sent. */
  private message(step: UserStep, turnIndex: number): DriverMessage | string {
    const { file, testCase, definitions, oracle, relativePath } = this.options;
    const metadata: Record<string, unknown> = {};
    for (const name of [testCase.metadata, step.metadata]) {
      if (name === undefined) continue;
      const values = definitions.metadata(file, name);
      if (!values) return `Metadata '${name}' is not defined in any test file.`;
      Object.assign(metadata, values);
    }
    const turn = oracle?.turn(relativePath, testCase.name, turnIndex);
    if (turn && turn.user.trim() !== step.text) {
      return `The command oracle's user turn ${turnIndex + 1} is '${turn.user}', but the test says '${step.text}'.`;
    }
    return {
      text: step.text,
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
      ...(turn && 'commands' in turn && this.options.replayOracleCommands !== false
        ? { commands: turn.commands }
        : {}),
    };
  }

  private evaluate(log: TurnLog, stop: Stop | undefined): E2EFailure | undefined {
    const stopAt = stop?.stepIndex ?? this.options.testCase.steps.length;
    const failure = usesAssertions(this.options.testCase)
      ? this.checkAssertions(log, stopAt)
      : this.checkSteps(log, stopAt);
    if (failure || !stop) return failure;
    return errorFailure(stop.line, stop.message, transcriptLines(log.all()));
  }

  private checkSteps(log: TurnLog, stopAt: number): E2EFailure | undefined {
    const check = checkSteps(this.options.testCase.steps, log, stopAt);
    const [first] = check.mismatches;
    if (!first) return undefined;
    return {
      kind: 'steps',
      line: first.line,
      message: first.message,
      mismatches: check.mismatches.map(({ line, message }) => ({ line, message })),
      difference: check.difference,
      transcript: transcriptLines(first.events),
    };
  }

  /**
   * Each user step's assertions against the events of its turn (the first step also sees the session
   * start). With assertion order enabled, each assertion only sees the events after the previous match.
   * Stops at the first failing assertion, as Rasa does.
   */
  private checkAssertions(log: TurnLog, stopAt: number): E2EFailure | undefined {
    for (const [stepIndex, step] of this.options.testCase.steps.slice(0, stopAt).entries()) {
      if (step.kind !== 'user' || step.assertions === undefined) continue;
      const turn = log.turn(stepIndex);
      if (!turn)
        return errorFailure(step.line, `No events were recorded for the user step '${step.text}'.`, []);
      const seen = stepIndex === 0 ? [...log.before(stepIndex), ...turn] : [...turn];
      let window = seen;
      for (const assertion of step.assertions) {
        const outcome = checkAssertion(assertion, window);
        if (!outcome.passed) {
          const message = outcome.message + (step.assertionOrderEnabled ? ORDER_HINT : '');
          return {
            kind: 'assertion',
            line: outcome.line,
            message,
            assertion,
            transcript: transcriptLines(seen),
          };
        }
        if (step.assertionOrderEnabled && outcome.matched) {
          window = window.slice(window.indexOf(outcome.matched) + 1);
        }
      }
    }
    return undefined;
  }
}

function errorFailure(line: number, message: string, transcript: readonly string[]): E2EFailure {
  return { kind: 'error', line, message, transcript };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
