/** The HTML coverage report: the table, then each flow's diagram with its unreached parts marked. */
import { escapeMarkup, renderFlowDiagram } from '../diagrams/index.js';
import type { FlowCoverage } from './coverage-summary.js';
import { branchText, percent, totalsLine } from './coverage-summary.js';

const STYLE = `
body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:24px;color:#1b1f24}
table{border-collapse:collapse;margin:12px 0 24px}
th,td{border:1px solid #d0d7de;padding:4px 10px;text-align:left;vertical-align:top}
td.number{text-align:right}
tr.untested td.coverage{color:#cf222e;font-weight:600}
ul{margin:0;padding-left:18px}
section.flow{margin:28px 0;overflow-x:auto}
.legend span{display:inline-block;margin-right:16px}
.legend .swatch{width:12px;height:12px;vertical-align:middle;margin-right:6px;border:2px solid}
`.trim();

export interface CoverageHtmlOptions {
  /** e.g. `passed tests` */
  readonly title: string;
  readonly rows: readonly FlowCoverage[];
}

export function renderCoverageHtml(options: CoverageHtmlOptions): string {
  const title = escapeMarkup(`Flow coverage (${options.title})`);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8"/>',
    `<title>${title}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${title}</h1>`,
    `<p class="totals">${escapeMarkup(totalsLine(options.rows))}</p>`,
    summaryTable(options.rows),
    '<p class="legend"><span><span class="swatch" style="border-color:#1a7f37"></span>reached</span>' +
      '<span><span class="swatch" style="border-color:#cf222e;border-style:dashed"></span>not reached by any test</span></p>',
    ...options.rows.map(
      (row, index) =>
        `<section class="flow" id="flow-${index}"><h2>${escapeMarkup(row.name)}</h2>\n` +
        `${renderFlowDiagram(row.flow, { coverage: row.reach })}\n</section>`,
    ),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function summaryTable(rows: readonly FlowCoverage[]): string {
  const body = rows.map((row, index) => {
    const reached = row.totalSteps - row.untestedSteps.length;
    const branches = row.totalBranches - row.untestedBranches.length;
    const steps = row.untestedSteps.map((step) => (step.at ? `${step.id} (${step.at})` : step.id));
    const ways = row.untestedBranches.map(branchText);
    return (
      `<tr class="${row.untestedSteps.length > 0 ? 'untested' : 'tested'}" data-flow-id="${escapeMarkup(row.flow.id)}">` +
      `<td><a href="#flow-${index}">${escapeMarkup(row.name)}</a></td>` +
      `<td class="number coverage">${percent(reached, row.totalSteps)}</td>` +
      `<td class="number">${row.totalSteps}</td>` +
      `<td class="number">${row.untestedSteps.length}</td>` +
      `<td class="number">${branches}/${row.totalBranches}</td>` +
      `<td>${list(steps)}</td><td>${list(ways)}</td></tr>`
    );
  });
  return [
    '<table class="summary">',
    '<thead><tr><th>Flow</th><th>Coverage</th><th>Steps</th><th>Missing steps</th><th>Branches tested</th>' +
      '<th>Untested steps</th><th>Untested branches</th></tr></thead>',
    `<tbody>${body.join('\n')}</tbody>`,
    '</table>',
  ].join('\n');
}

function list(items: readonly string[]): string {
  return items.length === 0
    ? ''
    : `<ul>${items.map((item) => `<li>${escapeMarkup(item)}</li>`).join('')}</ul>`;
}
