/**
 * Runs a corpus project's deterministic e2e cases with understanding by the real LLM command generator,
 * its model group pointed at a fake OpenAI server (OPENAI_BASE_URL, as LiteLLM reads it) that answers
 * from the project's command oracle. Returns what the runner and the server saw, for the assertions.
 */
import { relative, resolve } from 'node:path';
import type { Assistant } from '../../src/core/assistant.js';
import { executeTestE2E } from '../../src/cli/run-test-e2e.js';
import type { TestE2EOutcome } from '../../src/cli/run-test-e2e.js';
import { loadProject } from '../../src/project/load-project.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { normaliseTestPath, readOracleFile } from '../../src/testing/oracle.js';
import { resolveLlmConfig } from '../../src/understanding/llm/config.js';
import type { LlmGeneratorConfig } from '../../src/understanding/llm/config.js';
import type { FakeOpenAi, FakeRequest } from '../support/fake-openai.js';
import { OracleResponder, scriptedTurns } from '../support/oracle-llm.js';
import type { ScriptedTurn } from '../support/oracle-llm.js';
import type { CorpusProject } from './projects.js';
import { corpusPath } from './projects.js';

export const FAKE_API_KEY = 'sk-parley-fake';

export interface LlmPathRun {
  readonly assistant: Assistant;
  readonly llm: LlmGeneratorConfig;
  readonly outcome: TestE2EOutcome;
  readonly responder: OracleResponder;
  /** the requests the fake server received during this run, in order */
  readonly requests: readonly FakeRequest[];
  /** the free-text turns of the cases, in the order the runner ran them: one request is due for each */
  readonly expected: readonly ScriptedTurn[];
}

const silent = { stdout: () => undefined, stderr: () => undefined, setExitCode: () => undefined };

export async function runThroughLlm(project: CorpusProject, fake: FakeOpenAi): Promise<LlmPathRun> {
  const root = corpusPath(project.name);
  const oraclePath = corpusPath(`oracles/${project.name}.commands.yml`);
  const versions = project.rasaVersion ? { rasaVersion: project.rasaVersion } : {};
  const env = { ...process.env, OPENAI_BASE_URL: fake.apiBase, OPENAI_API_KEY: FAKE_API_KEY };
  const { project: loaded } = loadProject({ project: root }, versions);
  const resolved = resolveLlmConfig(loaded.assistant, env);
  if (!resolved.ok || !resolved.config)
    throw new Error(`${project.name}: no LLM command generator configured`);
  const llm = resolved.config;
  const oracle = readOracleFile(oraclePath);
  const turns = scriptedTurns(oracle, llm.syntax);
  const responder = new OracleResponder(turns);
  fake.answer(responder.handle);
  const first = fake.requests.length;
  const outcome = await executeTestE2E(silent, {
    location: { project: root },
    projectRoot: resolve(root),
    paths: [],
    oracle: oraclePath,
    replayOracleCommands: false,
    env,
    actions: `test/corpus/llm-path-actions/${project.name}.ts`,
    ...versions,
    failFast: false,
    deterministicOnly: true,
    quiet: true,
    logger: SILENT_LOGGER,
  });
  const expected = outcome.results.flatMap((result) => {
    const caseKey = `${normaliseTestPath(relative(root, result.file.path))}::${result.testCase.name}`;
    return turns.filter((turn) => turn.caseKey === caseKey);
  });
  return {
    assistant: loaded.assistant,
    llm,
    outcome,
    responder,
    requests: fake.requests.slice(first),
    expected,
  };
}
