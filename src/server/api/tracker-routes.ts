import type { Router } from 'express';
import { trackerToJson } from '../../core/events/tracker-json.js';
import type { Event } from '../../core/events/types.js';
import { apiRoute, badRequest, conversationNotFound } from './api-error.js';
import type { ApiContext } from './context.js';
import { eventsFromBody } from './event-body.js';
import { deliveryTo, outputChannelFor } from './output.js';
import { booleanParam, conversationIdOf, numberParam, requireBody, verbosityParam } from './params.js';

const TRACKER = '/conversations/*conversationId/tracker';
const EVENTS = `${TRACKER}/events`;

/** Reading, appending to, replacing and deleting a conversation's tracker. */
export function trackerRoutes(router: Router, context: ApiContext): void {
  const { agent, guard } = context;
  const route = (handler: Parameters<typeof apiRoute>[1]) =>
    apiRoute({ reason: 'ConversationError', logger: context.logger }, handler);

  router.get(
    TRACKER,
    guard,
    route(async (request, response) => {
      const id = conversationIdOf(request);
      const verbosity = verbosityParam(request);
      const until = numberParam(request, 'until');
      const { events, state } = await agent.loadWithSession(id);
      if (until === undefined) {
        response.json(trackerToJson(state, events, { verbosity }));
        return;
      }
      const kept = eventsUntil(events, until);
      response.json(trackerToJson(agent.replay(id, kept), kept, { verbosity }));
    }),
  );

  router.post(
    EVENTS,
    guard,
    route(async (request, response) => {
      const id = conversationIdOf(request);
      const body = requireBody(
        request,
        'You must provide events in the request body in order to append them to the state of a conversation.',
      );
      const verbosity = verbosityParam(request);
      const sideEffects = booleanParam(request, 'execute_side_effects', false);
      const events = eventsFromBody(body);
      if (events.length === 0)
        throw badRequest("Couldn't extract a proper event from the request body.", '', 'body');
      const appended = await agent.appendEvents(id, events, { session: 'if-new' });
      const { events: all, state } = await agent.trackerAfter(id, appended);
      if (sideEffects) {
        const output = outputChannelFor(request, {
          channels: context.channels,
          latestInputChannel: state.latestInputChannel,
        });
        const delivery = deliveryTo(output, id);
        // the posted bot messages only, not those of a session start added before them
        for (const event of appended.events.slice(appended.events.length - events.length))
          if (event.event === 'bot') delivery.send(event);
        await delivery.done();
      }
      response.json(trackerToJson(state, all, { verbosity }));
    }),
  );

  router.put(
    EVENTS,
    guard,
    route(async (request, response) => {
      const id = conversationIdOf(request);
      const body = requireBody(
        request,
        'You must provide events in the request body in order to replace the events of a conversation.',
      );
      const verbosity = verbosityParam(request);
      const replaced = await agent.replaceEvents(id, eventsFromBody(body));
      response.json(trackerToJson(replaced.state, replaced.events, { verbosity }));
    }),
  );

  router.delete(
    TRACKER,
    guard,
    route(async (request, response) => {
      const id = conversationIdOf(request);
      if ((await agent.state(id)).eventCount === 0) throw conversationNotFound();
      await agent.replaceEvents(id, []);
      response.status(204).end();
    }),
  );
}

/** Rasa's `travel_back_in_time`: the events up to the first one after `until`. */
function eventsUntil(events: readonly Event[], until: number): readonly Event[] {
  const after = events.findIndex((event) => event.timestamp > until);
  return after === -1 ? events : events.slice(0, after);
}
