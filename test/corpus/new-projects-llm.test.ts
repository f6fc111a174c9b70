/**
 * lakera-agent-security's e2e cases (test/corpus/new-projects) with free text understood by the
 * project's own LLM command generator (CompactLLMCommandGenerator, provider openai), pointed at a fake
 * OpenAI server that answers each prompt with the oracle's commands in the command DSL. The cases must
 * pass as they do with the oracle replayed: the prompt, the HTTP client, the DSL parser and the
 * command filters turn those answers into the same conversation. (calm-summit-masterclass's model
 * group names a fixed `api_base` of provider `rasa`, so it cannot be pointed at the fake server
 * without editing the project.)
 */
import { expect } from 'chai';
import { loadProject } from '../../src/project/load-project.js';
import { resolveLlmConfig } from '../../src/understanding/llm/config.js';
import { describeWithCorpus } from '../support/corpus.js';
import { startFakeOpenAi } from '../support/fake-openai.js';
import type { FakeOpenAi } from '../support/fake-openai.js';
import { OracleResponder, scriptedTurns } from '../support/oracle-llm.js';
import { promptFlows } from '../support/prompt-sections.js';
import { actions } from './actions/lakera-agent-security.js';
import { casesOracle, describeFailure, runProjectCases } from './new-projects/run.js';
import type { ProjectRun } from './new-projects/run.js';
import { corpusPath } from './projects.js';

const PROJECT = 'lakera-agent-security';

describeWithCorpus(
  `${PROJECT}: the e2e cases through the LLM command generator and a fake OpenAI server`,
  function () {
    this.timeout(60_000);
    let fake: FakeOpenAi;
    let responder: OracleResponder;
    let run: ProjectRun;
    let expectedTurns: number;

    before(async () => {
      fake = await startFakeOpenAi();
      const env = { OPENAI_BASE_URL: fake.apiBase, OPENAI_API_KEY: 'sk-parley-fake' };
      const { project } = loadProject({ project: corpusPath(PROJECT) });
      const llm = resolveLlmConfig(project.assistant, env);
      if (!llm.ok || !llm.config) throw new Error('no LLM configured');
      const turns = scriptedTurns(casesOracle(PROJECT), llm.config.syntax);
      expectedTurns = turns.length;
      responder = new OracleResponder(turns);
      fake.answer(responder.handle);
      run = await runProjectCases(PROJECT, actions, { llmEnv: env });
    });
    after(async () => {
      await fake.close();
    });

    it('passes every case', () => {
      const failed = run.results.filter((result) => !result.passed).map(describeFailure);
      expect(failed, failed.join('\n')).to.deep.equal([]);
      expect(run.results.length).to.be.at.least(10);
    });

    it('asks the model once per free-text turn and never for a payload', () => {
      expect(responder.problems).to.deep.equal([]);
      expect(fake.requests).to.have.length(expectedTurns);
      expect(responder.answered).to.have.length(expectedTurns);
      expect(
        responder.answered.map((answer) => answer.latestUser).filter((text) => text.startsWith('/')),
      ).to.deep.equal([]);
    });

    it('leaves the guarded loan check (if: False) out of the flows the prompt offers', () => {
      for (const request of fake.requests) {
        const offered = promptFlows(request.prompt).map((flow) => flow.name);
        expect(offered).to.include('search_cars');
        expect(offered).to.not.include('check_loan_qualification');
      }
    });
  },
);
