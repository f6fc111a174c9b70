import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { BUILT_IN_CHANNELS } from '../../src/channels/built-ins.js';
import { compatibilitySections, renderCompatibilityDoc } from '../../src/cli/compatibility/render.js';
import { COMMANDS } from '../../src/core/commands/index.js';
import { BUILT_IN_ACTIONS } from '../../src/core/domain/built-in-actions.js';
import { defaultPatternFiles } from '../../src/project/defaults.js';
import { RASA_ENDPOINT_SECTIONS } from '../../src/project/compatibility/endpoints.js';
import { endpointsSchema } from '../../src/project/schemas/endpoints.js';

function section(title: string) {
  const found = compatibilitySections().find((candidate) => candidate.title.startsWith(title));
  if (!found) throw new Error(`no section ${title}`);
  return found;
}

function supportOf(title: string, feature: string): string | undefined {
  return section(title).rows.find((entry) => entry.feature === feature)?.support;
}

describe('docs/compatibility.md', () => {
  it('is up to date with the registries Parley runs with (run npm run docs:compatibility)', () => {
    expect(readFileSync('docs/compatibility.md', 'utf8')).to.equal(renderCompatibilityDoc());
  });

  it('lists every pattern Parley ships, each as supported', () => {
    const shipped = defaultPatternFiles(undefined).flatMap((file) =>
      Object.keys((file.data as { flows: Record<string, unknown> }).flows),
    );
    expect(shipped.length).to.be.greaterThan(10);
    for (const id of shipped) expect(supportOf('Patterns', `\`${id}\``), id).to.equal('supported');
  });

  it('lists every command the engine knows, each as supported', () => {
    for (const name of Object.keys(COMMANDS))
      expect(supportOf('Commands', `\`${name}\``), name).to.equal('supported');
  });

  it('has a row for every built-in action validate accepts', () => {
    const rows = section('Built-in actions').rows.map((entry) => entry.feature);
    expect(rows).to.deep.equal(BUILT_IN_ACTIONS.map((name) => `\`${name}\``));
  });

  it('lists every channel Parley ships as supported', () => {
    for (const name of BUILT_IN_CHANNELS.keys())
      expect(supportOf('Channels', `\`${name}\``), name).to.equal('supported');
  });

  it('gives every endpoints.yml section the schema reads a status, and no status to one it does not', () => {
    const schemaSections = Object.keys(endpointsSchema['properties'] as Record<string, unknown>).sort();
    expect(Object.keys(RASA_ENDPOINT_SECTIONS).sort()).to.deep.equal(schemaSections);
  });

  it('reads command-line support from the real program: a flag Parley has is supported', () => {
    expect(supportOf('Command line', '`rasa run --port`')).to.equal('supported');
    expect(supportOf('Command line', '`rasa train --force`')).to.equal('supported');
    expect(supportOf('Command line', '`rasa visualize`')).to.equal('refused');
  });

  it('marks a flow key the flows schema does not accept as refused', () => {
    expect(supportOf('Flows', 'flow key `persisted_slots`')).to.equal('supported');
    expect(supportOf('Flows', 'legacy step kind `generation_prompt`')).to.equal('refused');
  });
});
