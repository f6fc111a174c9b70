// The dependency rule of ARCHITECTURE.md: imports point inward. Each folder of src/ may import
// only the layers listed for it; core may import no package and no node: builtin at all.
import path from 'node:path';

const ALLOWED_LAYERS = {
  core: ['core'],
  project: ['core', 'project'],
  understanding: ['core', 'understanding'],
  actions: ['core', 'actions'],
  knowledge: ['core', 'project', 'understanding', 'knowledge'],
  stores: ['core', 'stores'],
  runtime: ['core', 'runtime'],
  channels: ['core', 'runtime', 'channels'],
  a2a: ['core', 'runtime', 'a2a'],
  diagrams: ['core', 'diagrams'],
  server: ['core', 'runtime', 'server', 'channels', 'a2a', 'diagrams'],
  testing: ['core', 'runtime', 'project', 'testing', 'diagrams'],
  cli: null,
};
// Layers held to a short list of packages; the others may import any package but the HTTP framework.
const ALLOWED_PACKAGES = {
  diagrams: ['@dagrejs/dagre'],
};
const HTTP_FRAMEWORK_LAYERS = new Set(['server', 'channels', 'a2a', 'cli']);
const HTTP_FRAMEWORKS = new Set(['express']);

function layerOf(file) {
  const rel = path.relative(path.resolve('src'), file);
  if (rel.startsWith('..')) return undefined;
  const first = rel.split(path.sep)[0];
  return first in ALLOWED_LAYERS ? first : undefined;
}

function check(context, node) {
  const source = node.source && node.source.value;
  if (typeof source !== 'string') return;
  const file = context.filename;
  const layer = layerOf(file);
  if (!layer) return;
  if (!source.startsWith('.')) {
    if (layer === 'core') {
      context.report({ node, message: `src/core must stay pure: it may not import '${source}'.` });
    } else if (layer in ALLOWED_PACKAGES && !ALLOWED_PACKAGES[layer].includes(source)) {
      context.report({
        node,
        message: `src/${layer} may import only the packages ${ALLOWED_PACKAGES[layer].join(', ')}, not '${source}'.`,
      });
    } else if (HTTP_FRAMEWORKS.has(source) && !HTTP_FRAMEWORK_LAYERS.has(layer)) {
      context.report({ node, message: `Only the edges (server, channels, a2a) import '${source}'.` });
    }
    return;
  }
  const allowed = ALLOWED_LAYERS[layer];
  if (allowed === null) return;
  const targetLayer = layerOf(path.resolve(path.dirname(file), source));
  if (targetLayer && !allowed.includes(targetLayer)) {
    context.report({
      node,
      message: `src/${layer} may not import src/${targetLayer} (allowed: ${allowed.join(', ')}).`,
    });
  }
}

export default {
  rules: {
    'layer-imports': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const visit = (node) => check(context, node);
        return {
          ImportDeclaration: visit,
          ExportNamedDeclaration: visit,
          ExportAllDeclaration: visit,
          ImportExpression: visit,
        };
      },
    },
  },
};
