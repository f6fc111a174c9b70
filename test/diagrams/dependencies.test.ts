import { expect } from 'chai';
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
});
