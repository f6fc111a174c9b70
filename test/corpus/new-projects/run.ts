/**
 * Runs Parley's own e2e cases of a corpus project that has no upstream tests (`<project>/e2e/*.yml`
 * here), as `parley test e2e --oracle <project>/commands.yml --actions test/corpus/actions/<project>.ts`
 * would: the project loaded unchanged from the corpus, free-text turns answered by the command
 * oracle, payloads read as they are, custom actions by the test stubs. It keeps each case's agent so
 * that the tests can also look at the whole transcript and the stack the conversation ends with.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InProcessActionSource } from '../../../src/actions/custom/in-process.js';
import type { InProcessAction } from '../../../src/actions/custom/in-process.js';
import type { ActionStub } from '../../../src/actions/custom/stub-source.js';
import { AgentDriverFactory } from '../../../src/cli/agent-driver.js';
import { composeAgent } from '../../../src/cli/compose.js';
import { chooseUnderstanding } from '../../../src/cli/understanding.js';
import type { TrackerState } from '../../../src/core/events/tracker-state.js';
import type { Event } from '../../../src/core/events/types.js';
import { loadProject } from '../../../src/project/load-project.js';
import { yamlFilesUnder } from '../../../src/project/load/discover.js';
import type { Agent } from '../../../src/runtime/agent.js';
import { SILENT_LOGGER } from '../../../src/runtime/logger.js';
import type { ConversationDriver, DriverFactory, DriverStartOptions } from '../../../src/testing/driver.js';
import type { E2EResult } from '../../../src/testing/e2e-result.js';
import { CommandOracle, normaliseTestPath, readOracleFile } from '../../../src/testing/oracle.js';
import { parseE2ETestFile } from '../../../src/testing/parse-e2e.js';
import { runE2E } from '../../../src/testing/run-e2e.js';
import type { Environment } from '../../../src/understanding/llm/config.js';
import { corpusPath } from '../projects.js';

export interface CaseRun {
  /** every event of the conversation, the session start included */
  readonly events: readonly Event[];
  /** the tracker state once the last user message was handled */
  readonly state: TrackerState;
}

export interface ProjectRun {
  readonly results: readonly E2EResult[];
  /** by test case name */
  readonly cases: ReadonlyMap<string, CaseRun>;
  /** the free-text turns of the oracle, so a test can check that each one was needed */
  readonly oracle: CommandOracle;
}

/** Where a project's cases and oracle are kept in this repository. */
export function casesFolder(project: string): string {
  return fileURLToPath(new URL(`./${project}/`, import.meta.url));
}

/** Starts each case with a fresh agent and remembers it with the case's conversation id. */
class RecordingDriverFactory implements DriverFactory {
  readonly started: { name: string; agent: Agent; conversationId: string; driver: ConversationDriver }[] = [];
  private latest: Agent | undefined;
  private readonly inner: AgentDriverFactory;

  constructor(create: (stubs: ReadonlyMap<string, ActionStub>) => Promise<Agent>) {
    this.inner = new AgentDriverFactory({
      createAgent: async (stubs) => (this.latest = await create(stubs)),
    });
  }

  async start(options: DriverStartOptions): Promise<ConversationDriver> {
    const driver = await this.inner.start(options);
    if (!this.latest) throw new Error('no agent was created');
    this.started.push({
      name: options.testCase.name,
      agent: this.latest,
      conversationId: options.conversationId,
      driver,
    });
    return driver;
  }
}

/** The project's oracle, its test files named from the project root as the runner names them. */
export function casesOracle(project: string): CommandOracle {
  const folder = casesFolder(project);
  return rebase(readOracleFile(join(folder, 'commands.yml')), folder, corpusPath(project));
}

export interface RunOptions {
  /**
   * understand free text with the project's own command generator, its LLM configured from this
   * environment (e.g. OPENAI_BASE_URL of a fake server), instead of replaying the oracle's commands
   */
  readonly llmEnv?: Environment;
}

export async function runProjectCases(
  project: string,
  actions: readonly InProcessAction[],
  options: RunOptions = {},
): Promise<ProjectRun> {
  const root = corpusPath(project);
  const folder = casesFolder(project);
  const { project: loaded, diagnostics } = loadProject({ project: root });
  if (diagnostics.hasErrors) throw new Error(`${project} does not load: ${JSON.stringify(diagnostics.all)}`);
  const oracle = casesOracle(project);
  const understanding = options.llmEnv
    ? chooseUnderstanding(loaded.assistant, { logger: SILENT_LOGGER, env: options.llmEnv })
    : undefined;
  if (understanding && (!understanding.ok || understanding.kind !== 'llm'))
    throw new Error(`${project}: no LLM command generator from this environment`);
  const files = yamlFilesUnder([join(folder, 'e2e')]).map((path) =>
    parseE2ETestFile({ path, text: readFileSync(path, 'utf8') }),
  );
  const problems = files.flatMap((file) =>
    file.problems.map((problem) => `${file.path}: ${problem.message}`),
  );
  if (problems.length > 0) throw new Error(`unreadable test files:\n${problems.join('\n')}`);
  const factory = new RecordingDriverFactory((stubs) =>
    composeAgent({
      assistant: loaded.assistant,
      projectRoot: root,
      stubs,
      logger: SILENT_LOGGER,
      ...(understanding?.ok ? { commandGenerator: understanding.generator } : {}),
      extraActionSources: [new InProcessActionSource({ actions, clock: () => Date.now() / 1000 })],
    }),
  );
  const results = await runE2E({
    files,
    driverFactory: factory,
    projectRoot: root,
    oracle,
    replayOracleCommands: understanding === undefined,
  });
  const cases = new Map<string, CaseRun>();
  for (const { name, agent, conversationId, driver } of factory.started) {
    cases.set(name, { events: driver.transcript(), state: (await agent.load(conversationId)).state });
  }
  return { results, cases, oracle };
}

/** The oracle names test files relative to its own folder; the runner keys them from the project root. */
function rebase(oracle: CommandOracle, folder: string, root: string): CommandOracle {
  return new CommandOracle({
    ...(oracle.project ? { project: oracle.project } : {}),
    entries: oracle.entries.map((entry) => ({
      ...entry,
      file: normaliseTestPath(relative(root, join(folder, entry.file))),
    })),
  });
}

/** A failed case as one line: its name, the line of the test file and the message. */
export function describeFailure(result: E2EResult): string {
  const failure = result.failure;
  if (!failure) return `${result.testCase.name}: passed`;
  return `${result.testCase.name} (line ${failure.line}): ${failure.message}\n    ${failure.transcript.join('\n    ')}`;
}
