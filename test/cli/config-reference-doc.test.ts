import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { configReference, renderConfigReference } from '../../src/cli/config-reference.js';
import { endpointsSchema } from '../../src/project/schemas/index.js';

function section(title: string) {
  const found = configReference().find((candidate) => candidate.title.startsWith(title));
  if (!found) throw new Error(`no section ${title}`);
  return found;
}

describe('docs/configuration-reference.md', () => {
  it('is up to date with the JSON Schemas of the project files (run npm run docs:config)', () => {
    expect(readFileSync('docs/configuration-reference.md', 'utf8')).to.equal(renderConfigReference());
  });

  it('has a section per file kind: domain, config, endpoints, credentials, flows', () => {
    const titles = configReference().map((entry) => entry.title.split(' ')[0]);
    expect(titles).to.deep.equal(['domain.yml', 'config.yml', 'endpoints.yml', 'credentials.yml', 'flows']);
  });

  it('describes every top-level key of every file, and every endpoints section', () => {
    const undescribed = configReference().flatMap((entry) =>
      entry.keys
        .filter((key) => !key.path.includes('.') && !key.path.includes('[]') && key.path !== 'version')
        .filter((key) => key.description === '')
        .map((key) => `${entry.title}: ${key.path}`),
    );
    expect(undescribed).to.deep.equal([]);
    const sections = Object.keys(endpointsSchema['properties'] as object);
    const listed = section('endpoints.yml').keys.map((key) => key.path);
    expect(listed).to.include.members(sections);
  });

  it('reads defaults and allowed values from the schema, and walks lists, maps and step kinds', () => {
    const endpoints = section('endpoints.yml').keys;
    const timeout = endpoints.find((key) => key.path === 'a2a_server.task_timeout_seconds');
    expect(timeout?.defaultValue).to.equal(600);
    expect(endpoints.find((key) => key.path === 'a2a_server.task_store')?.allowed).to.deep.equal([
      'tracker_store',
      'in_memory',
    ]);
    expect(endpoints.map((key) => key.path)).to.include.members([
      '<section>.url',
      'a2a_server.auth.jwks_url',
    ]);
    const slotType = section('domain.yml').keys.find((key) => key.path === 'slots.<name>.type');
    expect(slotType?.allowed).to.include('categorical');
    const steps = section('flows').keys.map((key) => key.path);
    for (const kind of ['action', 'collect', 'set_slots', 'link', 'call', 'noop'])
      expect(steps).to.include(`flows.<name>.steps[].${kind}`);
    expect(steps).to.include('flows.<name>.steps[].next[].if');
  });
});
