import { expect } from 'chai';
import type { SerializedCommand } from '../../src/core/events/types.js';
import { loadProject } from '../../src/project/load-project.js';
import { readOracleFile } from '../../src/testing/oracle.js';
import { parseDslCommands } from '../../src/understanding/llm/dsl.js';
import type { DslSyntax } from '../../src/understanding/llm/dsl.js';
import { renderDsl } from '../support/oracle-llm.js';
import { CORPUS_PROJECTS, corpusPath } from './projects.js';
import { describeWithCorpus } from '../support/corpus.js';

/** What the parser makes of a value the model wrote: text, or null for "None". */
function asParsed(command: SerializedCommand): SerializedCommand {
  if (command.command !== 'set slot') return command;
  const value = command['value'];
  const text = typeof value === 'boolean' ? (value ? 'True' : 'False') : value;
  return { ...command, value: text === null ? null : String(text), extractor: 'LLM' };
}

// The fake model of llm-path.test.ts writes the oracles' commands in the DSL; the real parser must
// read every one of them back, in each of Rasa's three syntaxes.
describeWithCorpus('oracle commands written in the command DSL', () => {
  for (const project of CORPUS_PROJECTS) {
    it(`${project.name}: every oracle command parses back to itself in v1, v2 and v3`, () => {
      const { project: loaded } = loadProject({ project: corpusPath(project.name) });
      const vocabulary = {
        flowIds: new Set(loaded.assistant.flows.flows.map((flow) => flow.id)),
        slotNames: loaded.assistant.domain.slots,
      };
      const oracle = readOracleFile(corpusPath(`oracles/${project.name}.commands.yml`));
      const turns = oracle.entries.flatMap((entry) => entry.turns.filter((turn) => 'commands' in turn));
      expect(turns.length).to.be.greaterThan(0);
      for (const syntax of ['v1', 'v2', 'v3'] as const satisfies readonly DslSyntax[]) {
        for (const turn of turns) {
          if (!('commands' in turn)) continue;
          const parsed = parseDslCommands(renderDsl(turn.commands, syntax), vocabulary);
          expect(parsed, `${syntax}: ${turn.user}`).to.deep.equal(turn.commands.map(asParsed));
        }
      }
    });
  }
});
