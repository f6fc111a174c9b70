import { expect } from 'chai';
import { ProjectDiagnostics } from '../../src/project/diagnostics.js';
import { expandVariables, interpolateEnvironment } from '../../src/project/load/env-interpolation.js';
import { parseYamlFile } from '../../src/project/load/yaml-file.js';

function interpolate(yaml: string, env: Record<string, string>) {
  const diagnostics = new ProjectDiagnostics();
  const file = parseYamlFile('endpoints.yml', yaml, diagnostics);
  if (!file) throw new Error('fixture does not parse');
  interpolateEnvironment(file, env, diagnostics);
  return { data: file.data as Record<string, unknown>, diagnostics: diagnostics.all };
}

describe('environment interpolation', () => {
  it('expands ${VAR} in plain scalars', () => {
    const { data } = interpolate('tracker_store:\n  password: ${DB_PASSWORD}\n', { DB_PASSWORD: 's3cret' });
    expect(data).to.deep.equal({ tracker_store: { password: 's3cret' } });
  });

  it('expands several references and $VAR inside a value that has a ${...}', () => {
    const { data } = interpolate('url: http://${HOST}:$PORT/webhook\n', { HOST: 'localhost', PORT: '5055' });
    expect(data['url']).to.equal('http://localhost:5055/webhook');
  });

  it('leaves quoted scalars alone, as an implicit YAML resolver only sees plain scalars', () => {
    const { data, diagnostics } = interpolate('text: "A payment of ${amount}"\n', {});
    expect(data['text']).to.equal('A payment of ${amount}');
    expect(diagnostics).to.deep.equal([]);
  });

  it('leaves a plain $VAR without braces alone (the resolver needs ${...})', () => {
    const { data } = interpolate('home: $HOME\n', { HOME: '/root' });
    expect(data['home']).to.equal('$HOME');
  });

  it('reports an unset variable with its position and keeps the text', () => {
    const { data, diagnostics } = interpolate('a: 1\nmodel_groups:\n  key: ${MISSING_KEY}\n', {});
    expect(diagnostics.map((item) => [item.code, item.line, item.column])).to.deep.equal([
      ['ENV_VAR_UNSET', 3, 8],
    ]);
    expect(diagnostics[0]?.message).to.contain('MISSING_KEY');
    expect((data['model_groups'] as Record<string, unknown>)['key']).to.equal('${MISSING_KEY}');
  });

  it('expandVariables lists every missing name', () => {
    expect(expandVariables('${A}-${B}-$C', { B: 'b' })).to.deep.equal({
      text: '${A}-b-$C',
      missing: ['A', 'C'],
    });
  });
});
