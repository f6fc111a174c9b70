import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { renderDiagnosticsDoc } from '../../src/cli/diagnostics-doc.js';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostic-codes.js';

describe('docs/diagnostics.md', () => {
  it('is up to date with the diagnostic catalogue (run npm run docs:diagnostics)', () => {
    expect(readFileSync('docs/diagnostics.md', 'utf8')).to.equal(renderDiagnosticsDoc());
  });

  it('documents every code', () => {
    const doc = renderDiagnosticsDoc();
    for (const code of Object.keys(DIAGNOSTIC_CODES)) expect(doc).to.contain(`\`${code}\``);
  });
});
