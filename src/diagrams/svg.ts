/** Writes a laid-out flow graph as one self-contained SVG document: inline <style>, no external refs. */
import { escapeMarkup, truncate } from './escape.js';
import { edgeKey } from './flow-graph.js';
import { DETAIL_MAX_CHARS, EDGE_LABEL_MAX_CHARS } from './layout.js';
import type { PlacedEdge, PlacedGraph, PlacedNode, Point } from './layout.js';

/** Which nodes and edges carry `current`, `visited`, `reached` and `unreached`. */
export interface Highlights {
  readonly currentStepId: string | undefined;
  readonly visitedStepIds: ReadonlySet<string>;
  readonly visitedEdges: ReadonlySet<string>;
  readonly coverage:
    { readonly reachedStepIds: ReadonlySet<string>; readonly reachedEdges: ReadonlySet<string> } | undefined;
}

const HEADER_HEIGHT = 30;
const ARROW_LENGTH = 8;
const ARROW_HALF_WIDTH = 4;

// Scoped under the root class, so several diagrams inlined in one HTML page do not restyle the page.
const STYLE = `
.parley-flow-diagram{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif}
.parley-flow-diagram .flow-title{font-size:14px;font-weight:600;fill:#1b1f24}
.parley-flow-diagram .node rect{fill:#ffffff;stroke:#57606a;stroke-width:1.2}
.parley-flow-diagram .node .kind{font-size:10px;fill:#57606a;letter-spacing:.04em}
.parley-flow-diagram .node .detail{font-size:12px;fill:#1b1f24}
.parley-flow-diagram .kind-collect rect{fill:#ddf4ff}
.parley-flow-diagram .kind-action rect{fill:#fbefff}
.parley-flow-diagram .kind-set_slots rect{fill:#dafbe1}
.parley-flow-diagram .kind-link rect,.parley-flow-diagram .kind-call rect{fill:#fff8c5}
.parley-flow-diagram .kind-noop rect{fill:#f6f8fa}
.parley-flow-diagram .kind-start rect,.parley-flow-diagram .kind-end rect{fill:#24292f;stroke:#24292f}
.parley-flow-diagram .kind-start .kind,.parley-flow-diagram .kind-end .kind{fill:#ffffff;font-size:11px}
.parley-flow-diagram .kind-missing rect{fill:#ffebe9;stroke:#cf222e;stroke-dasharray:4 3}
.parley-flow-diagram .edge path{fill:none;stroke:#8c959f;stroke-width:1.4}
.parley-flow-diagram .edge polygon{fill:#8c959f}
.parley-flow-diagram .edge .edge-label rect{fill:#ffffff;fill-opacity:.9;stroke:none}
.parley-flow-diagram .edge .edge-label text{font-size:11px;fill:#57606a}
.parley-flow-diagram .reached rect{stroke:#1a7f37;stroke-width:2}
.parley-flow-diagram .edge.reached path{stroke:#1a7f37;stroke-width:2}
.parley-flow-diagram .edge.reached polygon{fill:#1a7f37}
.parley-flow-diagram .node.unreached rect{fill:#ffebe9;stroke:#cf222e;stroke-width:2;stroke-dasharray:5 3}
.parley-flow-diagram .edge.unreached path{stroke:#cf222e;stroke-width:2;stroke-dasharray:5 3}
.parley-flow-diagram .edge.unreached polygon{fill:#cf222e}
.parley-flow-diagram .kind-start.unreached .kind,.parley-flow-diagram .kind-end.unreached .kind{fill:#cf222e}
.parley-flow-diagram .node.visited rect{stroke:#0969da;stroke-width:2.5}
.parley-flow-diagram .edge.visited path{stroke:#0969da;stroke-width:2.5}
.parley-flow-diagram .edge.visited polygon{fill:#0969da}
.parley-flow-diagram .node.current rect{fill:#fff3b0;stroke:#bf8700;stroke-width:3}
`.trim();

export function renderSvg(title: string, graph: PlacedGraph, highlights: Highlights): string {
  const width = Math.max(graph.width, title.length * 8 + 32);
  const height = graph.height + HEADER_HEIGHT;
  const name = escapeMarkup(title);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="parley-flow-diagram" data-flow-id="${name}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="Flow ${name}">`,
    `<title>Flow ${name}</title>`,
    `<style>${STYLE}</style>`,
    `<text class="flow-title" x="16" y="20">${name}</text>`,
    `<g transform="translate(0 ${HEADER_HEIGHT})">`,
    `<g class="edges">`,
    ...graph.edges.map((edge) => edgeMarkup(edge, highlights)),
    `</g>`,
    `<g class="nodes">`,
    ...graph.nodes.map((node) => nodeMarkup(node, highlights)),
    `</g>`,
    `</g>`,
    `</svg>`,
  ].join('\n');
}

function nodeClasses(node: PlacedNode, highlights: Highlights): string {
  const classes = ['node', `kind-${node.kind}`];
  if (highlights.currentStepId === node.id) classes.push('current');
  if (highlights.visitedStepIds.has(node.id)) classes.push('visited');
  if (highlights.coverage)
    classes.push(highlights.coverage.reachedStepIds.has(node.id) ? 'reached' : 'unreached');
  return classes.join(' ');
}

function nodeMarkup(node: PlacedNode, highlights: Highlights): string {
  const left = node.center.x - node.width / 2;
  const top = node.center.y - node.height / 2;
  const round =
    node.kind === 'start' || node.kind === 'end' ? node.height / 2 : node.kind === 'collect' ? 8 : 3;
  const detail = truncate(node.label.detail, DETAIL_MAX_CHARS);
  const tooltip = node.label.detail ? `${node.id}\n${node.label.kind}: ${node.label.detail}` : node.id;
  const text = detail
    ? `<text class="kind" x="${num(node.center.x)}" y="${num(top + 17)}" text-anchor="middle">${escapeMarkup(node.label.kind)}</text>` +
      `<text class="detail" x="${num(node.center.x)}" y="${num(top + 34)}" text-anchor="middle">${escapeMarkup(detail)}</text>`
    : `<text class="kind" x="${num(node.center.x)}" y="${num(node.center.y + 4)}" text-anchor="middle">${escapeMarkup(node.label.kind)}</text>`;
  return (
    `<g class="${nodeClasses(node, highlights)}" data-step-id="${escapeMarkup(node.id)}">` +
    `<title>${escapeMarkup(tooltip)}</title>` +
    `<rect x="${num(left)}" y="${num(top)}" width="${num(node.width)}" height="${num(node.height)}" rx="${num(round)}"/>` +
    `${text}</g>`
  );
}

function edgeClasses(edge: PlacedEdge, highlights: Highlights): string {
  const key = edgeKey(edge.from, edge.to);
  const classes = ['edge'];
  if (edge.label !== undefined) classes.push('branch');
  if (highlights.visitedEdges.has(key)) classes.push('visited');
  if (highlights.coverage) classes.push(highlights.coverage.reachedEdges.has(key) ? 'reached' : 'unreached');
  return classes.join(' ');
}

function edgeMarkup(edge: PlacedEdge, highlights: Highlights): string {
  const key = edgeKey(edge.from, edge.to);
  const tooltip =
    edge.label === undefined ? `${edge.from} → ${edge.to}` : `${edge.from} → ${edge.to} if ${edge.label}`;
  return (
    `<g class="${edgeClasses(edge, highlights)}" data-edge="${escapeMarkup(key)}">` +
    `<title>${escapeMarkup(tooltip)}</title>` +
    `<path d="${pathData(edge.points)}"/>` +
    arrowHead(edge.points) +
    edgeLabelMarkup(edge) +
    `</g>`
  );
}

function edgeLabelMarkup(edge: PlacedEdge): string {
  if (edge.label === undefined || edge.labelAt === undefined) return '';
  const text = truncate(edge.label, EDGE_LABEL_MAX_CHARS);
  const width = Array.from(text).length * 6.2 + 8;
  const { x, y } = edge.labelAt;
  return (
    `<g class="edge-label"><rect x="${num(x - width / 2)}" y="${num(y - 9)}" width="${num(width)}" height="18" rx="3"/>` +
    `<text x="${num(x)}" y="${num(y + 4)}" text-anchor="middle">${escapeMarkup(text)}</text></g>`
  );
}

/** A polyline through dagre's points, its corners rounded with quadratic curves. */
function pathData(points: readonly Point[]): string {
  const [first, ...rest] = points;
  if (!first) return '';
  const parts = [`M${num(first.x)} ${num(first.y)}`];
  rest.forEach((point, index) => {
    const after = rest[index + 1];
    if (!after) {
      parts.push(`L${num(point.x)} ${num(point.y)}`);
      return;
    }
    parts.push(
      `Q${num(point.x)} ${num(point.y)} ${num((point.x + after.x) / 2)} ${num((point.y + after.y) / 2)}`,
    );
  });
  return parts.join(' ');
}

function arrowHead(points: readonly Point[]): string {
  const tip = points[points.length - 1];
  const from = points[points.length - 2];
  if (!tip || !from) return '';
  const length = Math.hypot(tip.x - from.x, tip.y - from.y) || 1;
  const ux = (tip.x - from.x) / length;
  const uy = (tip.y - from.y) / length;
  const baseX = tip.x - ux * ARROW_LENGTH;
  const baseY = tip.y - uy * ARROW_LENGTH;
  const corners = [
    [tip.x, tip.y],
    [baseX - uy * ARROW_HALF_WIDTH, baseY + ux * ARROW_HALF_WIDTH],
    [baseX + uy * ARROW_HALF_WIDTH, baseY - ux * ARROW_HALF_WIDTH],
  ];
  return `<polygon points="${corners.map(([x, y]) => `${num(x ?? 0)},${num(y ?? 0)}`).join(' ')}"/>`;
}

/** One decimal, no `-0`: the same layout always prints the same bytes. */
function num(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return String(rounded === 0 ? 0 : rounded);
}
