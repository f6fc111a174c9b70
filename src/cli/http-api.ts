import { basename } from 'node:path';
import { domainToJson } from '../actions/action-server/domain-json.js';
import type { InputChannel } from '../channels/channel.js';
import type { Agent } from '../runtime/agent.js';
import type { Logger } from '../runtime/logger.js';
import type { MountedRouter } from '../server/app.js';
import { createHttpApi } from '../server/api/index.js';
import type { TurnTracker } from '../server/api/index.js';
import type { ApiAuth } from '../server/auth.js';
import { commandsFromNlu } from '../understanding/nlu-command-adapter.js';

/** `--enable-api`: the HTTP API at the server's root, and a line for the start-up summary. */
export function httpApiRouter(options: {
  readonly agent: Agent;
  readonly channels: readonly InputChannel[];
  readonly logger: Logger;
  /** made first thing at start-up, so that a bad JWT setting fails before anything is opened */
  readonly auth: ApiAuth;
  /** the model archive served (`GET /status` shows its file name and id, as Rasa) */
  readonly model?: { readonly path: string; readonly id: string };
  readonly status?: Readonly<Record<string, unknown>>;
  /** the server's turn gate, through which trigger_intent's turns run */
  readonly turns?: TurnTracker;
}): { mounted: MountedRouter; summary: string } {
  const router = createHttpApi({
    agent: options.agent,
    auth: options.auth,
    logger: options.logger,
    intentCommands: commandsFromNlu,
    domainJson: { ...domainToJson(options.agent.assistant.domain) },
    channels: options.channels,
    ...(options.model ? { model: { file: basename(options.model.path), id: options.model.id } } : {}),
    ...(options.status ? { status: options.status } : {}),
    ...(options.turns ? { turns: options.turns } : {}),
  });
  return { mounted: { path: '/', router }, summary: `http api: on (${options.auth.describe()})` };
}
