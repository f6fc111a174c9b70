import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const CORE = 'src/core';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const IMPURE_PATTERNS: readonly [RegExp, string][] = [
  [/\bfrom\s+['"](?!\.)[^'"]+['"]/, 'imports a package or node: builtin'],
  [/\bimport\s*\(\s*['"](?!\.)/, 'dynamically imports a package'],
  [/\brequire\s*\(/, 'uses require'],
  [/\bDate\.now\s*\(/, 'reads the clock'],
  [/\bnew\s+Date\s*\(/, 'reads the clock'],
  [/\bperformance\.now\s*\(/, 'reads the clock'],
  [/\bMath\.random\s*\(/, 'uses randomness'],
  [/\bcrypto\./, 'uses crypto'],
  [/\bconsole\./, 'writes to the console'],
  [/\bprocess\./, 'reads the process'],
];

describe('src/core purity', () => {
  it('has source files to check', () => {
    expect(sourceFiles(CORE)).to.not.be.empty;
  });

  it('imports no package or node builtin and uses no clock, randomness, process or console', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(CORE)) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (/^\s*(\/\/|\*)/.test(line)) return;
        for (const [pattern, what] of IMPURE_PATTERNS) {
          if (pattern.test(line)) violations.push(`${file}:${index + 1} ${what}: ${line.trim()}`);
        }
      });
    }
    expect(violations).to.deep.equal([]);
  });

  it('flags an impure line (the checker itself works)', () => {
    const sample = "import { readFileSync } from 'node:fs';";
    expect(IMPURE_PATTERNS.some(([pattern]) => pattern.test(sample))).to.equal(true);
  });
});
