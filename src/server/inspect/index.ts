/**
 * The inspector (Rasa's `rasa inspect`): a page at `/inspect` to chat with the assistant and watch each
 * turn (stack, slots, events, the active flow and step, commands with their source), switch between
 * conversations, restart one and replay a stored one. Served only with the HTTP API, behind its auth.
 */
import { Router } from 'express';
import type { Request } from 'express';
import type { Agent } from '../../runtime/agent.js';
import type { Logger } from '../../runtime/logger.js';
import { sendRasaError } from '../../channels/http-errors.js';
import { requireAuth } from '../auth.js';
import type { ApiAuth } from '../auth.js';
import type { TurnGate } from '../turn-gate.js';
import { LiveTraces } from './live-traces.js';
import { renderFlowDiagram } from '../../diagrams/index.js';
import {
  INSPECTOR_ASSETS,
  INSPECTOR_HTML,
  inspectorAssetsDir,
  inspectorCsp,
  readAsset,
  setPageHeaders,
  styleHashOf,
} from './page.js';
import { inspectorApi } from './routes.js';
import type { FlowDiagrams } from './routes.js';

export interface InspectorOptions {
  readonly agent: Agent;
  readonly gate: TurnGate;
  readonly auth: ApiAuth;
  readonly logger: Logger;
  /** where the page's script and styles are (default: the build's dist/inspector-ui) */
  readonly assetsDir?: string;
}

/** the path the inspector is mounted at */
export const INSPECT_PATH = '/inspect';

export function createInspector(options: InspectorOptions): Router {
  const router = Router();
  const guard = requireAuth(options.auth);
  const assetsDir = options.assetsDir ?? inspectorAssetsDir();
  const diagrams = flowDiagrams(options.agent);
  const csp = inspectorCsp(diagrams.styleHash ? [diagrams.styleHash] : []);
  router.get('/', guard, (_request, response) => {
    setPageHeaders(response, csp);
    if (!assetsDir) {
      response.status(503).type('text/plain').send('The inspector page is not built: run npm run build.');
      return;
    }
    response.type('html').send(INSPECTOR_HTML);
  });
  // the script and styles hold no data: served without credentials, like any static file
  router.get('/assets/:name', (request: Request, response) => {
    const name = String(request.params['name']);
    const type = Object.hasOwn(INSPECTOR_ASSETS, name) ? INSPECTOR_ASSETS[name] : undefined;
    setPageHeaders(response, csp);
    if (!type || !assetsDir) {
      sendRasaError(response, { status: 404, reason: 'NotFound', message: `No inspector asset '${name}'.` });
      return;
    }
    response.type(type).send(readAsset(assetsDir, name));
  });
  router.use('/api', inspectorApi({ ...options, guard, traces: new LiveTraces(), diagrams: diagrams.draw }));
  return router;
}

/** The assistant's flow diagrams (src/diagrams), and the hash of the style every diagram carries. */
function flowDiagrams(agent: Agent): { draw: FlowDiagrams; styleHash: string | undefined } {
  const flows = agent.assistant.flows;
  const draw: FlowDiagrams = (flowId, marks) => {
    const flow = flows.get(flowId);
    return flow ? renderFlowDiagram(flow, marks) : undefined;
  };
  const first = flows.flows[0];
  return { draw, styleHash: first ? styleHashOf(renderFlowDiagram(first)) : undefined };
}
