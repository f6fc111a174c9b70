import { expect } from 'chai';
import { ESLint } from 'eslint';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// src/diagrams is shared by the CLI, the e2e coverage report and the server's pages: it stays a pure
// function of core types, drawn with one layout library.
const FOLDER = 'src/diagrams';
const ALLOWED_PACKAGES = new Set(['@dagrejs/dagre']);

function importsOf(text: string): string[] {
  return [...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g)].map(
    (match) => match[1] ?? match[2] ?? '',
  );
}

describe('src/diagrams dependencies', () => {
  it('imports only src/core, its own files and dagre', () => {
    const files = readdirSync(FOLDER).filter((name) => name.endsWith('.ts'));
    expect(files).to.not.be.empty;
    const violations = files.flatMap((file) =>
      importsOf(readFileSync(join(FOLDER, file), 'utf8'))
        .filter((source) =>
          source.startsWith('.')
            ? !source.startsWith('./') && !source.startsWith('../core/')
            : !ALLOWED_PACKAGES.has(source),
        )
        .map((source) => `${file}: ${source}`),
    );
    expect(violations).to.deep.equal([]);
  });

  it('flags a forbidden import (the checker itself works)', () => {
    expect(importsOf("import { x } from '../runtime/agent.js';")).to.deep.equal(['../runtime/agent.js']);
    expect(importsOf("const m = await import('node:fs');")).to.deep.equal(['node:fs']);
  });

  it('is enforced by the lint layer rule, which lets the edges, testing and cli import it', async function () {
    this.timeout(30_000);
    const eslint = new ESLint();
    const messagesOf = async (file: string, text: string): Promise<string[]> => {
      const [result] = await eslint.lintText(text, { filePath: file });
      return (result?.messages ?? [])
        .filter((m) => m.ruleId === 'parley/layer-imports')
        .map((m) => m.message);
    };
    const bad = await messagesOf(
      'src/diagrams/sample.ts',
      "import { Agent } from '../runtime/agent.js';\nimport { readFileSync } from 'node:fs';\nexport { Agent, readFileSync };\n",
    );
    expect(bad).to.have.length(2);
    expect(bad[0]).to.contain('src/diagrams may not import src/runtime');
    expect(bad[1]).to.contain("may import only the packages @dagrejs/dagre, not 'node:fs'");
    const uses = "import { renderFlowDiagram } from '../diagrams/index.js';\nexport { renderFlowDiagram };\n";
    for (const layer of ['server', 'testing', 'cli'])
      expect(await messagesOf(`src/${layer}/sample.ts`, uses), layer).to.deep.equal([]);
    expect(await messagesOf('src/runtime/sample.ts', uses)).to.have.length(1);
  });
});
