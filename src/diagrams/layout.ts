/**
 * Places the boxes and routes the arrows with dagre's layered layout (top to bottom). Sizes are
 * estimated from character counts: there are no font metrics in Node, and a box a little too wide
 * reads better than text spilling out of it.
 */
import dagre from '@dagrejs/dagre';
import type { EdgeLabel, GraphLabel, NodeLabel as DagreNode } from '@dagrejs/dagre';
import { truncate } from './escape.js';
import type { DiagramEdge, DiagramNode, FlowGraph } from './flow-graph.js';

export const DETAIL_MAX_CHARS = 34;
export const EDGE_LABEL_MAX_CHARS = 36;
const KIND_CHAR_WIDTH = 6.6;
const DETAIL_CHAR_WIDTH = 7;
const EDGE_CHAR_WIDTH = 6.2;

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface PlacedNode extends DiagramNode {
  readonly center: Point;
  readonly width: number;
  readonly height: number;
}

export interface PlacedEdge extends DiagramEdge {
  readonly points: readonly Point[];
  /** where the label's centre goes, when the edge has one */
  readonly labelAt: Point | undefined;
}

export interface PlacedGraph {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
}

export function nodeSize(node: DiagramNode): { width: number; height: number } {
  if (node.kind === 'start' || node.kind === 'end') return { width: 64, height: 28 };
  const detail = truncate(node.label.detail, DETAIL_MAX_CHARS);
  const text = Math.max(
    node.label.kind.length * KIND_CHAR_WIDTH,
    Array.from(detail).length * DETAIL_CHAR_WIDTH,
  );
  return { width: Math.round(Math.max(96, text + 28)), height: detail ? 44 : 30 };
}

function edgeLabelSize(label: string | undefined): { width: number; height: number } {
  if (label === undefined) return { width: 0, height: 0 };
  const chars = Array.from(truncate(label, EDGE_LABEL_MAX_CHARS)).length;
  return { width: Math.round(chars * EDGE_CHAR_WIDTH + 10), height: 18 };
}

export function layoutFlowGraph(graph: FlowGraph): PlacedGraph {
  const g = new dagre.graphlib.Graph<GraphLabel, DagreNode, EdgeLabel>({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 28, edgesep: 14, ranksep: 44, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  // Keys by position, not by step id: ids are authors' text, and dagre adds nodes of its own.
  const keyOf = new Map(graph.nodes.map((node, index) => [node.id, `n${index}`]));
  graph.nodes.forEach((node, index) => g.setNode(`n${index}`, nodeSize(node)));
  graph.edges.forEach((edge, index) => {
    const v = keyOf.get(edge.from);
    const w = keyOf.get(edge.to);
    if (v === undefined || w === undefined) return;
    g.setEdge({ v, w, name: `e${index}` }, { ...edgeLabelSize(edge.label), labelpos: 'c', minlen: 1 });
  });
  dagre.layout(g);
  const nodes = graph.nodes.map((node, index) => placeNode(node, g.node(`n${index}`)));
  const edges: PlacedEdge[] = [];
  graph.edges.forEach((edge, index) => {
    const v = keyOf.get(edge.from);
    const w = keyOf.get(edge.to);
    if (v === undefined || w === undefined) return;
    edges.push(placeEdge(edge, g.edge({ v, w, name: `e${index}` })));
  });
  const bounds = g.graph();
  return { width: Math.ceil(bounds.width ?? 0), height: Math.ceil(bounds.height ?? 0), nodes, edges };
}

function placeNode(node: DiagramNode, placed: DagreNode): PlacedNode {
  return {
    ...node,
    center: { x: placed.x ?? 0, y: placed.y ?? 0 },
    width: placed.width,
    height: placed.height,
  };
}

function placeEdge(edge: DiagramEdge, placed: EdgeLabel): PlacedEdge {
  const points = (placed.points ?? []).map((point: Point) => ({ x: point.x, y: point.y }));
  const labelAt =
    edge.label !== undefined && placed.x !== undefined && placed.y !== undefined
      ? { x: placed.x, y: placed.y }
      : undefined;
  return { ...edge, points, labelAt };
}
