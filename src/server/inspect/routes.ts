/** The inspector page's JSON API under /inspect/api, behind the HTTP API's auth. */
import { Router } from 'express';
import type { Request, RequestHandler } from 'express';
import { CollectingOutputChannel } from '../../channels/collecting-output.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import { conversationIdProblem } from '../../core/text/identifiers.js';
import type { Agent } from '../../runtime/agent.js';
import type { Logger } from '../../runtime/logger.js';
import { ApiError, apiRoute, badRequest } from '../api/api-error.js';
import { conversationIdOf, requireObjectBody, stringParam } from '../api/params.js';
import type { TurnGate } from '../turn-gate.js';
import type { LiveTraces } from './live-traces.js';
import { conversationView, replaySteps } from './views.js';

/** the channel name of the page's turns (stored as their `input_channel`, shown in metrics) */
export const INSPECTOR_CHANNEL = 'inspector';
export const MAX_LIST_PAGE = 100;
export const MAX_REPLAY_PAGE = 500;
/** the longest message the page may send, in characters */
export const MAX_MESSAGE_LENGTH = 10_000;

/** Draws a flow's diagram (src/diagrams), with a conversation's current step and path marked. */
export type FlowDiagrams = (
  flowId: string,
  marks: { readonly currentStepId?: string; readonly visitedStepIds?: readonly string[] },
) => string | undefined;

export interface InspectorApiOptions {
  readonly agent: Agent;
  readonly gate: TurnGate;
  readonly logger: Logger;
  readonly guard: RequestHandler;
  readonly traces: LiveTraces;
  readonly diagrams?: FlowDiagrams;
}

export function inspectorApi(options: InspectorApiOptions): Router {
  const { agent, gate, guard, traces } = options;
  const router = Router();
  const route = (handler: Parameters<typeof apiRoute>[1]) =>
    apiRoute({ reason: 'InspectorError', logger: options.logger }, handler);
  const viewOf = async (id: string) => {
    const { events, state } = await agent.load(id);
    return conversationView({ empty: emptyState(agent, id), events, state, live: traces.of(id) });
  };

  router.get(
    '/conversations',
    guard,
    route(async (request, response) => {
      const limit = integerParam(request, 'limit', { fallback: 50, min: 1, max: MAX_LIST_PAGE });
      const after = stringParam(request, 'after');
      if (after !== undefined && conversationIdProblem(after))
        throw badRequest(`'after' ${conversationIdProblem(after)}.`, 'after', 'query');
      response.json(await agent.listConversations({ limit, ...(after !== undefined ? { after } : {}) }));
    }),
  );

  router.get(
    '/conversations/:conversationId',
    guard,
    route(async (request, response) => {
      response.json(await viewOf(conversationIdOf(request)));
    }),
  );

  router.get(
    '/conversations/:conversationId/replay',
    guard,
    route(async (request, response) => {
      const id = conversationIdOf(request);
      const offset = integerParam(request, 'offset', { fallback: 0, min: 0, max: 10_000_000 });
      const limit = integerParam(request, 'limit', { fallback: 200, min: 1, max: MAX_REPLAY_PAGE });
      const events = await agent.load(id).then((loaded) => loaded.events);
      const steps = replaySteps(emptyState(agent, id), events, { offset, limit });
      response.json({ conversationId: id, eventCount: events.length, offset, steps });
    }),
  );

  router.post(
    '/conversations/:conversationId/messages',
    guard,
    route(async (request, response) => {
      const id = conversationIdOf(request);
      const text = messageText(requireObjectBody(request, 'The request body needs a "text".'));
      const output = new CollectingOutputChannel({ name: INSPECTOR_CHANNEL });
      const recorder = traces.recorder();
      await gate.handleMessage({
        senderId: id,
        text,
        inputChannel: INSPECTOR_CHANNEL,
        output,
        trace: recorder,
        request,
      });
      traces.keep(id, recorder.events);
      response.json({ messages: output.messages, trace: recorder.events, view: await viewOf(id) });
    }),
  );

  router.post(
    '/conversations/:conversationId/restart',
    guard,
    route(async (request, response) => {
      const id = conversationIdOf(request);
      await gate.track(INSPECTOR_CHANNEL, id, () => agent.appendEvents(id, [{ event: 'restart' }]));
      response.json({ view: await viewOf(id) });
    }),
  );

  flowRoutes(router, options);
  return router;
}

function flowRoutes(router: Router, options: InspectorApiOptions): void {
  const { agent, guard, diagrams } = options;
  const route = (handler: Parameters<typeof apiRoute>[1]) =>
    apiRoute({ reason: 'InspectorError', logger: options.logger }, handler);
  router.get(
    '/flows',
    guard,
    route(async (_request, response) => {
      const flows = agent.assistant.flows.flows.map((flow) => ({
        id: flow.id,
        name: flow.name ?? flow.id,
        description: flow.description ?? '',
      }));
      response.json({ flows, diagrams: diagrams !== undefined });
    }),
  );
  if (!diagrams) return;
  router.get(
    '/flows/:flowId/diagram',
    guard,
    route(async (request, response) => {
      const flowId = String(request.params['flowId']);
      if (!agent.assistant.flows.has(flowId)) throw noFlow(flowId);
      const conversation = stringParam(request, 'conversation');
      const marks = conversation === undefined ? {} : await pathIn(agent, conversation, flowId);
      const svg = diagrams(flowId, marks);
      if (svg === undefined) throw noFlow(flowId);
      response.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
      response.type('image/svg+xml').send(svg);
    }),
  );
}

/** The steps of `flowId` the conversation visited (in order) and the one it is at. */
async function pathIn(
  agent: Agent,
  conversationId: string,
  flowId: string,
): Promise<{ currentStepId?: string; visitedStepIds: string[] }> {
  const problem = conversationIdProblem(conversationId);
  if (problem) throw badRequest(`'conversation' ${problem}.`, 'conversation', 'query');
  const { events, state } = await agent.load(conversationId);
  const visited: string[] = [];
  for (const step of replaySteps(emptyState(agent, conversationId), events, {
    offset: 0,
    limit: events.length,
  }))
    for (const frame of step.stack)
      if (frame.flow_id === flowId && visited.at(-1) !== frame.step_id && !visited.includes(frame.step_id))
        visited.push(frame.step_id);
  const current = [...state.stack].reverse().find((frame) => frame.flow_id === flowId)?.step_id;
  return { visitedStepIds: visited, ...(current ? { currentStepId: current } : {}) };
}

/** A fresh conversation's state (every domain slot at its initial value): where replays start. */
function noFlow(flowId: string): ApiError {
  return new ApiError({
    status: 404,
    reason: 'NotFound',
    message: `The assistant has no flow '${flowId.slice(0, 100)}'.`,
  });
}

function emptyState(agent: Agent, conversationId: string): TrackerState {
  return agent.replay(conversationId, []);
}

function messageText(body: Record<string, unknown>): string {
  const text = body['text'];
  if (typeof text !== 'string') throw badRequest("'text' must be a string.", 'text', 'body');
  if (text.trim() === '') throw badRequest("'text' must not be empty.", 'text', 'body');
  if (text.length > MAX_MESSAGE_LENGTH)
    throw badRequest(`'text' is longer than ${MAX_MESSAGE_LENGTH} characters.`, 'text', 'body');
  return text;
}

function integerParam(
  request: Request,
  name: string,
  bounds: { readonly fallback: number; readonly min: number; readonly max: number },
): number {
  const raw = stringParam(request, name);
  if (raw === undefined) return bounds.fallback;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isInteger(value) && value >= bounds.min && value <= bounds.max) return value;
  throw badRequest(
    `Invalid parameter value for '${name}'. Should be a whole number from ${bounds.min} to ${bounds.max}.`,
    name,
    'query',
  );
}
