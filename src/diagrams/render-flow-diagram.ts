import type { Flow } from '../core/flows/types.js';
import { buildFlowGraph, edgeKey } from './flow-graph.js';
import { layoutFlowGraph } from './layout.js';
import { renderSvg } from './svg.js';

export interface FlowDiagramOptions {
  /** drawn as the conversation's position */
  currentStepId?: string;
  /** path taken, in order; steps and the edges between consecutive ones highlighted */
  visitedStepIds?: readonly string[];
  /** what tests reached; edge key `${from}->${to}`; everything else is marked `unreached` */
  coverage?: { reachedStepIds: ReadonlySet<string>; reachedEdges: ReadonlySet<string> };
}

/**
 * The flow as a self-contained SVG document: a box per step (and START, END), an arrow per way on,
 * branch conditions on their arrows. Nodes carry `data-step-id`, edges `data-edge="from->to"`, and
 * the classes `current`, `visited`, `reached`, `unreached` as the options say. Same input, same bytes.
 */
export function renderFlowDiagram(flow: Flow, options: FlowDiagramOptions = {}): string {
  const visited = options.visitedStepIds ?? [];
  const visitedEdges = new Set<string>();
  for (let index = 1; index < visited.length; index++) {
    const from = visited[index - 1];
    const to = visited[index];
    if (from !== undefined && to !== undefined) visitedEdges.add(edgeKey(from, to));
  }
  return renderSvg(flow.id, layoutFlowGraph(buildFlowGraph(flow)), {
    currentStepId: options.currentStepId,
    visitedStepIds: new Set(visited),
    visitedEdges,
    coverage: options.coverage,
  });
}
