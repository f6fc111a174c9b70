export { renderFlowDiagram } from './render-flow-diagram.js';
export type { FlowDiagramOptions } from './render-flow-diagram.js';
export { buildFlowGraph, edgeKey } from './flow-graph.js';
export type { DiagramEdge, DiagramNode, DiagramNodeKind, FlowGraph } from './flow-graph.js';
export { escapeMarkup } from './escape.js';
