import { basename } from 'node:path';
import { domainToJson } from '../actions/action-server/domain-json.js';
import type { InputChannel } from '../channels/channel.js';
import type { Agent } from '../runtime/agent.js';
import type { Logger } from '../runtime/logger.js';
import type { MountedRouter } from '../server/app.js';
import { createHttpApi } from '../server/api/index.js';
import { ApiAuth } from '../server/auth.js';
import type { ApiAuthConfig } from '../server/auth.js';
import { commandsFromNlu } from '../understanding/nlu-command-adapter.js';

/**
 * `--enable-api`: the HTTP API at the server's root with its auth (an unreadable JWT key or unknown
 * `--jwt-method` fails here, before the server listens), and a line for the start-up summary.
 */
export async function httpApiRouter(options: {
  readonly agent: Agent;
  readonly channels: readonly InputChannel[];
  readonly logger: Logger;
  readonly auth?: ApiAuthConfig;
  /** the model archive served (`GET /status` shows its file name and id, as Rasa) */
  readonly model?: { readonly path: string; readonly id: string };
  readonly status?: Readonly<Record<string, unknown>>;
}): Promise<{ mounted: MountedRouter; summary: string }> {
  const auth = await ApiAuth.create(options.auth);
  const router = createHttpApi({
    agent: options.agent,
    auth,
    logger: options.logger,
    intentCommands: commandsFromNlu,
    domainJson: { ...domainToJson(options.agent.assistant.domain) },
    channels: options.channels,
    ...(options.model ? { model: { file: basename(options.model.path), id: options.model.id } } : {}),
    ...(options.status ? { status: options.status } : {}),
  });
  return { mounted: { path: '/', router }, summary: `http api: on (${authSummary(options.auth)})` };
}

function authSummary(config: ApiAuthConfig | undefined): string {
  const kinds = [
    ...(config?.token ? ['token'] : []),
    ...(config?.jwtSecret ? [`JWT ${config.jwtMethod || 'HS256'}`] : []),
  ];
  return kinds.length > 0 ? `auth: ${kinds.join(' + ')}` : 'no auth';
}
