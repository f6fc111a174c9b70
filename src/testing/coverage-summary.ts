/** Rasa's flow coverage table: per flow, steps reached of all, the untested steps and branches. */
import { relative } from 'node:path';
import type { Flow } from '../core/flows/types.js';
import { buildFlowGraph, edgeKey } from '../diagrams/index.js';
import type { FlowReach } from './coverage.js';

export interface UntestedStep {
  readonly id: string;
  /** where the step is written, `file:line` relative to the project, when known */
  readonly at: string | undefined;
}

export interface UntestedBranch {
  /** `from->to`, the key the diagrams use */
  readonly key: string;
  readonly condition: string;
}

export interface FlowCoverage {
  readonly flow: Flow;
  /** `path/to/flows.yml::flow_id` as in Rasa's report (the id alone when the file is unknown) */
  readonly name: string;
  readonly totalSteps: number;
  readonly untestedSteps: readonly UntestedStep[];
  readonly totalBranches: number;
  readonly untestedBranches: readonly UntestedBranch[];
  readonly reach: FlowReach;
}

export function flowCoverage(flow: Flow, reach: FlowReach, projectRoot: string): FlowCoverage {
  const file = flow.source ? relative(projectRoot, flow.source.file) : undefined;
  const untestedSteps = flow.steps
    .filter((step) => !reach.reachedStepIds.has(step.id))
    .map((step) => ({
      id: step.id,
      at: step.source ? `${relative(projectRoot, step.source.file)}:${step.source.line}` : undefined,
    }));
  // Two branches of a step to the same target are one edge: one way the conversation can go.
  const branches = new Map<string, string[]>();
  for (const edge of buildFlowGraph(flow).edges) {
    if (edge.label === undefined) continue;
    const key = edgeKey(edge.from, edge.to);
    branches.set(key, [...(branches.get(key) ?? []), edge.label]);
  }
  const untestedBranches = [...branches]
    .filter(([key]) => !reach.reachedEdges.has(key))
    .map(([key, labels]) => ({ key, condition: labels.join(' | ') }));
  return {
    flow,
    name: file ? `${file}::${flow.id}` : flow.id,
    totalSteps: flow.steps.length,
    untestedSteps,
    totalBranches: branches.size,
    untestedBranches,
    reach,
  };
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? '100.00%' : `${((part / whole) * 100).toFixed(2)}%`;
}

/** The text table for stdout, one block per flow, then the totals. */
export function formatCoverageText(title: string, rows: readonly FlowCoverage[]): string {
  const header = ['Flow', 'Coverage', 'Steps', 'Missing', 'Branches'];
  const table = rows.map((row) => {
    const reached = row.totalSteps - row.untestedSteps.length;
    const branches = row.totalBranches - row.untestedBranches.length;
    return [
      row.name,
      percent(reached, row.totalSteps),
      String(row.totalSteps),
      String(row.untestedSteps.length),
      `${branches}/${row.totalBranches}`,
    ];
  });
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...table.map((line) => line[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  const out = [`Flow coverage (${title}):`, line(header)];
  rows.forEach((row, index) => {
    out.push(line(table[index] ?? []));
    if (row.untestedSteps.length > 0)
      out.push(
        `  untested steps: ${row.untestedSteps.map((step) => (step.at ? `${step.id} (${step.at})` : step.id)).join(', ')}`,
      );
    if (row.untestedBranches.length > 0)
      out.push(`  untested branches: ${row.untestedBranches.map(branchText).join(', ')}`);
  });
  out.push(totalsLine(rows));
  return `${out.join('\n')}\n`;
}

export function totalsLine(rows: readonly FlowCoverage[]): string {
  const steps = rows.reduce((sum, row) => sum + row.totalSteps, 0);
  const missing = rows.reduce((sum, row) => sum + row.untestedSteps.length, 0);
  const branches = rows.reduce((sum, row) => sum + row.totalBranches, 0);
  const untested = rows.reduce((sum, row) => sum + row.untestedBranches.length, 0);
  return `Total: ${steps - missing}/${steps} steps (${percent(steps - missing, steps)}), ${branches - untested}/${branches} branches, ${rows.length} flows`;
}

/** `from->to (if condition)`, or `(else)` for the branch without one. */
export function branchText(branch: UntestedBranch): string {
  return branch.condition === 'else' ? `${branch.key} (else)` : `${branch.key} (if ${branch.condition})`;
}
