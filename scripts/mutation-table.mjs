#!/usr/bin/env node
// Prints the per-folder score table of a Stryker JSON report as Markdown (for test/README.md).
//
//   node scripts/mutation-table.mjs [reports/mutation/core.json]
//
// Score = (killed + timeout) / (killed + timeout + survived + no coverage), as Stryker computes it; mutants
// Stryker ignored (static ones, see stryker.config.mjs) and compile errors are not in it.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

const COUNTED = ['Killed', 'Timeout', 'Survived', 'NoCoverage'];

function tally(report) {
  const folders = new Map();
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const folder = dirname(file);
    const row = folders.get(folder) ?? { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0 };
    for (const { status } of mutants) if (status in row) row[status] += 1;
    folders.set(folder, row);
  }
  return [...folders.entries()].sort(([a], [b]) => a.localeCompare(b));
}

function score(row) {
  const total = COUNTED.reduce((sum, status) => sum + row[status], 0);
  return total === 0 ? 'n/a' : `${(((row.Killed + row.Timeout) / total) * 100).toFixed(1)} %`;
}

function main() {
  const path = process.argv[2] ?? 'reports/mutation/core.json';
  const rows = tally(JSON.parse(readFileSync(path, 'utf8')));
  const sum = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0 };
  for (const [, row] of rows) for (const key of Object.keys(sum)) sum[key] += row[key];
  const line = (name, row) =>
    `| ${name} | ${score(row)} | ${row.Killed} | ${row.Timeout} | ${row.Survived} | ${row.NoCoverage} | ${row.Ignored} |`;
  const out = [
    '| Folder | Score | Killed | Timeout | Survived | No coverage | Ignored (static) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(([folder, row]) => line(`\`${folder}\``, row)),
    line('**all**', sum),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

main();
