/**
 * A flow as a graph of boxes and arrows, before layout: one node per step plus START and END, one edge
 * per way a step can go on (a static `next`, each branch of a `next` list, the fall-through to the
 * end of the flow). Node ids are the step ids the engine records, so an edge `a->b` is the move a
 * dialogue frame makes from step `a` to step `b`.
 */
import { END_STEP, START_STEP } from '../core/flows/types.js';
import type { Flow, NextLink, Step } from '../core/flows/types.js';
import { stepLabel } from './labels.js';
import type { NodeLabel } from './labels.js';

export type DiagramNodeKind = Step['kind'] | 'start' | 'end' | 'missing';

export interface DiagramNode {
  /** the step id (`START`, `END`, or a step of the flow; an unknown `next` target keeps its text) */
  readonly id: string;
  readonly kind: DiagramNodeKind;
  readonly label: NodeLabel;
}

export interface DiagramEdge {
  readonly from: string;
  readonly to: string;
  /** the branch's condition, `else` for the branch without one, undefined for a plain `next` */
  readonly label: string | undefined;
}

export interface FlowGraph {
  readonly nodes: readonly DiagramNode[];
  readonly edges: readonly DiagramEdge[];
}

/** The key of an edge in `data-edge` and in coverage sets. */
export function edgeKey(from: string, to: string): string {
  return `${from}->${to}`;
}

export function buildFlowGraph(flow: Flow): FlowGraph {
  const stepIds = new Set(flow.steps.map((step) => step.id));
  const nodes: DiagramNode[] = [{ id: START_STEP, kind: 'start', label: { kind: 'start', detail: '' } }];
  nodes.push(...flow.steps.map((step) => ({ id: step.id, kind: step.kind, label: stepLabel(step) })));
  const edges: DiagramEdge[] = [];
  // A `next: START` goes to the first step, and the engine records that step: draw it so.
  const resolve = (target: string): string =>
    target === START_STEP ? (flow.firstStepId ?? END_STEP) : target;
  edges.push({ from: START_STEP, to: flow.firstStepId ?? END_STEP, label: undefined });
  for (const step of flow.steps) edges.push(...stepEdges(step, resolve));
  const missing = new Set<string>();
  for (const edge of edges) {
    if (edge.to !== END_STEP && !stepIds.has(edge.to)) missing.add(edge.to);
  }
  for (const id of missing) nodes.push({ id, kind: 'missing', label: { kind: 'missing step', detail: id } });
  nodes.push({ id: END_STEP, kind: 'end', label: { kind: 'end', detail: '' } });
  return { nodes, edges };
}

function stepEdges(step: Step, resolve: (target: string) => string): DiagramEdge[] {
  // A link hands the conversation to another flow: this flow ends there, with no arrow onwards.
  if (step.kind === 'link') return [];
  return nextEdges(step.id, step.next, resolve);
}

function nextEdges(from: string, next: NextLink, resolve: (target: string) => string): DiagramEdge[] {
  switch (next.kind) {
    case 'end':
    case 'none':
      return [{ from, to: END_STEP, label: undefined }];
    case 'step':
      return [{ from, to: resolve(next.target), label: undefined }];
    case 'branches':
      return next.branches.map((branch) => ({
        from,
        to: resolve(branch.target),
        label: branch.condition ? branch.condition.text : 'else',
      }));
  }
}
