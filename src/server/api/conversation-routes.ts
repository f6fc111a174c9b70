import type { Router } from 'express';
import { BUILT_IN_ACTIONS } from '../../core/domain/built-in-actions.js';
import { DEFAULT_INTENTS } from '../../core/domain/types.js';
import type { Domain } from '../../core/domain/types.js';
import { parseEvent } from '../../core/events/parse-event.js';
import { trackerToJson } from '../../core/events/tracker-json.js';
import type { ParseData } from '../../core/events/types.js';
import type { CommandGenerator } from '../../core/ports.js';
import { ApiError, apiRoute, badRequest, conversationNotFound } from './api-error.js';
import type { ApiContext, IntentCommands } from './context.js';
import { entitiesFromBody } from './entities.js';
import { collectedMessages, deliveryTo, outputChannelFor } from './output.js';
import { conversationIdOf, requireObjectBody, verbosityParam } from './params.js';
import type { TurnResult } from '../../runtime/agent.js';

/** Rasa's prefix for the text of a user message triggered from outside (`UserUttered.create_external`). */
const EXTERNAL_MESSAGE_PREFIX = 'EXTERNAL: ';

/** the channel label of the turns the API runs, in metrics and turn logs */
const API_CHANNEL = 'http_api';

/** Logging a user message, triggering an intent, and predicting the next action. */
export function conversationRoutes(router: Router, context: ApiContext): void {
  const { agent, guard } = context;
  const route = (handler: Parameters<typeof apiRoute>[1]) =>
    apiRoute({ reason: 'ConversationError', logger: context.logger }, handler);

  router.post(
    '/conversations/*conversationId/messages',
    guard,
    route(async (request, response) => {
      const id = conversationIdOf(request);
      const body = requireObjectBody(
        request,
        'No message defined in request body. Add a message to the request body in order to add it to the tracker.',
      );
      const verbosity = verbosityParam(request);
      if (body['sender'] !== 'user')
        throw badRequest(
          'Currently, only user messages can be passed to this endpoint. ' +
            `Messages of sender '${String(body['sender'])}' cannot be handled.`,
          'sender',
          'body',
        );
      const text = body['text'];
      if (typeof text !== 'string') throw badRequest('The message needs a "text".', 'text', 'body');
      const parseData = parseDataFromBody(text, body['parse_data']);
      const logged = await agent.logMessage({
        conversationId: id,
        text,
        ...(parseData ? { parseData } : {}),
      });
      const { events, state } = await agent.trackerAfter(id, logged);
      response.json(trackerToJson(state, events, { verbosity }));
    }),
  );

  router.post(
    '/conversations/*conversationId/trigger_intent',
    guard,
    route(async (request, response) => {
      const id = conversationIdOf(request);
      const body = requireObjectBody(request, 'Name of the intent not provided in request body.');
      const name = body['name'];
      if (typeof name !== 'string' || name === '')
        throw badRequest('Name of the intent not provided in request body.', 'name', 'body');
      const entities = entitiesFromBody(body['entities']);
      const verbosity = verbosityParam(request);
      if (!agent.assistant.domain.intents.has(name) && !DEFAULT_INTENTS.includes(name))
        throw new ApiError({
          status: 404,
          reason: 'NotFound',
          message: `The intent ${name} does not exist in the domain.`,
        });
      const before = await agent.state(id);
      const channel = before.latestInputChannel;
      const output = outputChannelFor(request, { channels: context.channels, latestInputChannel: channel });
      const delivery = deliveryTo(output, id);
      let result: TurnResult | undefined;
      const turn = async () => {
        result = await agent.handleMessage({
          conversationId: id,
          text: `${EXTERNAL_MESSAGE_PREFIX}${name}`,
          ...(channel ? { inputChannel: channel } : {}),
          metadata: { is_external: true },
          commandGenerator: intentUnderstanding(name, entities, context.intentCommands),
          onBotMessage: (event) => delivery.send(event),
        });
        await delivery.done();
      };
      await (context.turns ? context.turns.track(API_CHANNEL, id, turn, request) : turn());
      const { events, state } = result ? await agent.trackerAfter(id, result) : await agent.load(id);
      const messages = collectedMessages(output);
      response.json({
        tracker: trackerToJson(state, events, { verbosity }),
        ...(messages ? { messages } : {}),
      });
    }),
  );

  router.post(
    '/conversations/*conversationId/predict',
    guard,
    route(async (request, response) => {
      const id = conversationIdOf(request);
      if ((await agent.state(id)).eventCount === 0) throw conversationNotFound();
      const prediction = await agent.predict(id);
      const { events, state } = await agent.load(id);
      response.json({
        scores: actionScores(agent.assistant.domain, prediction.action),
        policy: prediction.policy,
        confidence: prediction.confidence,
        tracker: trackerToJson(state, events, { verbosity: 'AFTER_RESTART' }),
      });
    }),
  );
}

/** Understanding that knows the answer already: the intent, as the NLU command adapter reads it. */
function intentUnderstanding(
  intent: string,
  entities: ParseData['entities'],
  intentCommands: IntentCommands,
): CommandGenerator {
  return {
    understand: async ({ text, state, engine }) => ({
      commands: intentCommands({ intent, entities }, engine, state),
      parseData: { text, intent: { name: intent, confidence: 1 }, entities },
    }),
  };
}

/** `parse_data` given with a message, checked as a `user` event's would be. */
function parseDataFromBody(text: string, raw: unknown): ParseData | undefined {
  if (raw === undefined || raw === null) return undefined;
  const parsed = parseEvent({ event: 'user', text, parse_data: raw }, 0);
  if (!parsed.ok || parsed.event.event !== 'user')
    throw badRequest(
      `Invalid "parse_data": ${parsed.ok ? 'not a user message' : parsed.error}`,
      'parse_data',
      'body',
    );
  return parsed.event.parse_data;
}

/**
 * Rasa's `scores`: every action of the domain (built-ins, custom actions, responses) with the flow
 * policy's one-hot prediction, sorted by score then name.
 */
function actionScores(domain: Domain, predicted: string): { action: string; score: number }[] {
  const names = new Set([
    ...BUILT_IN_ACTIONS,
    ...domain.actions.keys(),
    ...domain.responses.keys(),
    predicted,
  ]);
  return [...names]
    .map((action) => ({ action, score: action === predicted ? 1 : 0 }))
    .sort((a, b) => b.score - a.score || (a.action < b.action ? -1 : a.action > b.action ? 1 : 0));
}
