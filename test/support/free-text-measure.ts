/**
 * Runs an assistant's payload-free e2e cases through Parley's offline understanding (the trained NLU
 * pipeline and NluCommandGenerator, whatever command generator the project's config.yml names) and
 * measures two things: the cases that pass, and the answers to the slot being asked that fill it
 * with the value the case expects.
 *
 * A turn counts as an answer to the asked slot when, at the start of the turn, a collect step is
 * waiting for slot S and the case expects S to be set before its next user step. It is filled
 * correctly when the turn's events set S to that value (compared as the e2e runner compares).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadActionsFrom } from '../../src/actions/custom/load-actions.js';
import { InProcessActionSource } from '../../src/actions/custom/in-process.js';
import type { ActionStub } from '../../src/actions/custom/stub-source.js';
import { AgentDriverFactory } from '../../src/cli/agent-driver.js';
import { composeAgent } from '../../src/cli/compose.js';
import { activeCollectSlot } from '../../src/core/commands/cleanup.js';
import type { Event } from '../../src/core/events/types.js';
import type { CommandGenerator } from '../../src/core/ports.js';
import { yamlFilesUnder } from '../../src/project/load/discover.js';
import { loadProject } from '../../src/project/load-project.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import type { ConversationDriver, DriverFactory, DriverStartOptions } from '../../src/testing/driver.js';
import type { E2ETestCase } from '../../src/testing/e2e-model.js';
import { parseE2ETestFile } from '../../src/testing/parse-e2e.js';
import { pyEquals, pyStr } from '../../src/testing/python-values.js';
import { runE2E } from '../../src/testing/run-e2e.js';
import {
  DEFAULT_THRESHOLDS,
  FLOW_INTENT_PREFIX,
  NluCommandGenerator,
} from '../../src/understanding/nlu/nlu-command-generator.js';
import { nluInterpreter, trainNlu } from '../../src/understanding/nlu/pipeline.js';

export interface FreeTextRun {
  readonly projectRoot: string;
  /** e2e test files or folders */
  readonly paths: readonly string[];
  /** a module of in-process stub actions (test/corpus/actions/...) */
  readonly actions?: string;
  readonly rasaVersion?: string;
  /** off-topic messages: which of them would start a flow from its description (no question pending) */
  readonly offTopic?: readonly string[];
}

export interface FreeTextMeasure {
  readonly cases: number;
  /** `file name::test case` of every failing case */
  readonly failing: readonly string[];
  /** why each failing case failed (the runner's first mismatch and the turn's events) */
  readonly reasons: readonly string[];
  /** answers to the slot being asked, as defined above */
  readonly asked: number;
  readonly filled: number;
  /** `test case: "text" -> slot (expected X, got Y)` for every answer that did not fill the slot as expected */
  readonly misses: readonly string[];
  /** the off-topic messages that start a flow, as `message -> flow` */
  readonly offTopicStarts: readonly string[];
}

interface Turn {
  readonly text: string;
  readonly asked: string | undefined;
  readonly events: readonly Event[];
}

/** Runs so far in this process: each run's conversation ids are its own (custom actions may keep data per id). */
let runs = 0;

export async function measureFreeText(run: FreeTextRun): Promise<FreeTextMeasure> {
  runs += 1;
  const versions = run.rasaVersion ? { rasaVersion: run.rasaVersion } : {};
  const { project, diagnostics } = loadProject({ project: run.projectRoot }, versions);
  if (diagnostics.hasErrors) throw new Error(`${run.projectRoot} does not load`);
  const assistant = project.assistant;
  const interpreter = nluInterpreter(trainNlu(assistant), () => new Date());
  const offTopicStarts = (run.offTopic ?? []).flatMap((text) => {
    const { intent, confidence } = interpreter.interpret(text).prediction;
    if (!intent?.startsWith(FLOW_INTENT_PREFIX) || confidence < DEFAULT_THRESHOLDS.intent) return [];
    return [`${text} -> ${intent.slice(FLOW_INTENT_PREFIX.length)}`];
  });
  const recorder = new AskedSlotRecorder(new NluCommandGenerator({ interpreter }));
  const actions = run.actions ? await loadActionsFrom(run.actions) : undefined;
  const factory = new AgentDriverFactory({
    createAgent: (stubs) =>
      composeAgent({
        assistant,
        projectRoot: run.projectRoot,
        stubs: stubs as ReadonlyMap<string, ActionStub>,
        logger: SILENT_LOGGER,
        commandGenerator: recorder,
        ...(actions
          ? { extraActionSources: [new InProcessActionSource({ actions, clock: () => Date.now() / 1000 })] }
          : {}),
      }),
  });
  const turns = new Map<E2ETestCase, Turn[]>();
  const files = yamlFilesUnder(run.paths.map((path) => resolve(path))).map((path) =>
    parseE2ETestFile({ path, text: readFileSync(path, 'utf8') }),
  );
  const problems = files.flatMap((file) => file.problems.map((p) => `${file.path}:${p.line} ${p.message}`));
  if (problems.length > 0) throw new Error(`unreadable test files:\n${problems.join('\n')}`);
  const results = await runE2E({
    files,
    driverFactory: new RecordingDriverFactory(factory, recorder, turns, `measure${runs}-`),
    projectRoot: run.projectRoot,
  });
  const answers = results.flatMap((result) => answersOf(result.testCase, turns.get(result.testCase) ?? []));
  return {
    cases: results.length,
    failing: results
      .filter((result) => !result.passed)
      .map((result) => `${fileName(result.file.path)}::${result.testCase.name}`),
    reasons: results
      .filter((result) => !result.passed)
      .map((result) =>
        [
          `${result.testCase.name}: ${result.failure?.message ?? ''}`,
          ...(result.failure?.transcript ?? []).map((line) => `    ${line}`),
        ].join('\n'),
      ),
    asked: answers.length,
    filled: answers.filter((answer) => answer.miss === undefined).length,
    misses: answers.flatMap((answer) => (answer.miss ? [answer.miss] : [])),
    offTopicStarts,
  };
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The answers of one case: each turn whose asked slot the case expects set before its next user step. */
function answersOf(testCase: E2ETestCase, turns: readonly Turn[]): { miss?: string }[] {
  const expectations = expectedSlotsPerUserStep(testCase);
  return turns.flatMap((turn, index) => {
    const expected = expectations[index]?.find((slot) => slot.name === turn.asked);
    if (!expected || turn.asked === undefined) return [];
    const set = turn.events.filter(
      (event): event is Extract<Event, { event: 'slot' }> =>
        event.event === 'slot' && event.name === turn.asked,
    );
    if (set.some((event) => pyEquals(event.value, expected.value))) return [{}];
    const got = set.length > 0 ? set.map((event) => pyStr(event.value)).join(', ') : 'not set';
    return [
      {
        miss: `${testCase.name}: "${turn.text}" -> ${turn.asked} (expected ${pyStr(expected.value)}, got ${got})`,
      },
    ];
  });
}

function expectedSlotsPerUserStep(testCase: E2ETestCase): { name: string; value: unknown }[][] {
  const perUser: { name: string; value: unknown }[][] = [];
  for (const step of testCase.steps) {
    if (step.kind === 'user') perUser.push([]);
    else if (step.kind === 'slot_was_set')
      perUser[perUser.length - 1]?.push(
        ...step.slots.filter((slot) => slot.hasValue).map((slot) => ({ name: slot.name, value: slot.value })),
      );
  }
  return perUser;
}

/** Notes, for every message understood, which slot a collect step was waiting for. */
class AskedSlotRecorder implements CommandGenerator {
  readonly asked: (string | undefined)[] = [];

  constructor(private readonly inner: CommandGenerator) {}

  understand(
    input: Parameters<CommandGenerator['understand']>[0],
  ): ReturnType<CommandGenerator['understand']> {
    this.asked.push(activeCollectSlot(input.state.stack));
    return this.inner.understand(input);
  }
}

class RecordingDriverFactory implements DriverFactory {
  constructor(
    private readonly inner: DriverFactory,
    private readonly recorder: AskedSlotRecorder,
    private readonly turns: Map<E2ETestCase, Turn[]>,
    private readonly conversationPrefix: string,
  ) {}

  async start(options: DriverStartOptions): Promise<ConversationDriver> {
    const driver = await this.inner.start({
      ...options,
      conversationId: `${this.conversationPrefix}${options.conversationId}`,
    });
    const turns: Turn[] = [];
    this.turns.set(options.testCase, turns);
    const recorder = this.recorder;
    return {
      async sendMessage(input) {
        const before = recorder.asked.length;
        const events = await driver.sendMessage(input);
        const asked = recorder.asked.length > before ? recorder.asked[before] : undefined;
        turns.push({ text: input.text, asked, events });
        return events;
      },
      setSlots: (slots) => driver.setSlots(slots),
      transcript: () => driver.transcript(),
      ...(driver.close ? { close: () => driver.close?.() ?? Promise.resolve() } : {}),
    };
  }
}
