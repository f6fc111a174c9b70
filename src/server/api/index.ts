import { Router } from 'express';
import { requireAuth } from '../auth.js';
import type { ApiContext, HttpApiOptions } from './context.js';
import { conversationRoutes } from './conversation-routes.js';
import { infoRoutes } from './info-routes.js';
import { trackerRoutes } from './tracker-routes.js';

export type { HttpApiOptions, IntentCommands, ModelInfo, TurnTracker } from './context.js';

/**
 * Rasa's HTTP API (`--enable-api`) as one router for the server's root: every route but `GET /version`
 * behind Rasa's token / JWT check, every failure in Rasa's error body. Unknown paths fall through to
 * the next router (the channels).
 */
export function createHttpApi(options: HttpApiOptions): Router {
  const context: ApiContext = {
    ...options,
    channels: options.channels ?? [],
    guard: requireAuth(options.auth),
  };
  const router = Router();
  infoRoutes(router, context);
  trackerRoutes(router, context);
  conversationRoutes(router, context);
  return router;
}
