import type { Request, Router } from 'express';
import { dump } from 'js-yaml';
import { PARLEY_VERSION } from '../../version.js';
import { ApiError, apiRoute, badRequest } from './api-error.js';
import type { ApiContext } from './context.js';
import { flowsToJson } from './flows-json.js';
import { requireObjectBody } from './params.js';

/** The oldest Parley whose model archives and trackers this one reads. */
const MINIMUM_COMPATIBLE_VERSION = '0.1.0';

const JSON_TYPE = 'application/json';
const YAML_TYPE = 'application/x-yaml';

/** Version, status, the domain and flows, and `/model/parse`. */
export function infoRoutes(router: Router, context: ApiContext): void {
  const { agent, guard, logger } = context;

  router.get('/version', (_request, response) => {
    response.json({ version: PARLEY_VERSION, minimum_compatible_version: MINIMUM_COMPATIBLE_VERSION });
  });

  router.get('/status', guard, (_request, response) => {
    response.json({
      model_file: context.model?.file ?? null,
      model_id: context.model?.id ?? null,
      num_active_training_jobs: 0,
      assistant_id: agent.assistant.config.assistantId ?? null,
      ...context.status,
    });
  });

  router.get(
    '/domain',
    guard,
    apiRoute({ reason: 'UnexpectedError', logger }, async (request, response) => {
      const type = acceptedDomainType(request);
      if (type === JSON_TYPE) response.json(context.domainJson);
      else response.type(YAML_TYPE).send(dump(context.domainJson, { noRefs: true, lineWidth: -1 }));
    }),
  );

  router.get('/flows', guard, (_request, response) => {
    response.json(flowsToJson(agent.assistant.flows.flows));
  });

  router.post(
    '/model/parse',
    guard,
    apiRoute({ reason: 'ParsingError', logger }, async (request, response) => {
      const body = requireObjectBody(
        request,
        'No text message defined in request_body. Add text message to request body in order to obtain the intent and extracted entities.',
      );
      if (request.query['emulation_mode'] !== undefined)
        throw badRequest(
          "Invalid parameter value for 'emulation_mode'. Parley answers in Rasa's own format only.",
          'emulation_mode',
          'query',
        );
      const text = body['text'];
      if (typeof text !== 'string') throw badRequest('The request body needs a "text".', 'text', 'body');
      const messageId = body['message_id'];
      const parsed = await agent.parse(text);
      response.json({ ...parsed, text, ...(typeof messageId === 'string' ? { message_id: messageId } : {}) });
    }),
  );
}

/**
 * Rasa answers JSON for an `Accept` ending in `json` (the default) and YAML for one ending in `yaml` or
 * `yml`. Parley also reads a list of types and treats `*\/*` (what curl and fetch send) as JSON.
 */
function acceptedDomainType(request: Request): string {
  const accept = request.headers.accept;
  if (!accept) return JSON_TYPE;
  for (const part of accept.split(',')) {
    const type = (part.split(';')[0] ?? '').trim().toLowerCase();
    if (type.endsWith('json') || type === '*/*' || type === 'application/*') return JSON_TYPE;
    if (type.endsWith('yaml') || type.endsWith('yml')) return YAML_TYPE;
  }
  throw new ApiError({
    status: 406,
    reason: 'NotAcceptable',
    message:
      `Invalid Accept header. Domain can be provided as json ("Accept: ${JSON_TYPE}") or ` +
      `yml ("Accept: ${YAML_TYPE}"). Make sure you've set the appropriate Accept header.`,
  });
}
