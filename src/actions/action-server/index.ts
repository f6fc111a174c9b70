export { ActionServerClient, DEFAULT_RASA_VERSION } from './client.js';
export type { ActionServerClientOptions, ActionServerRequest } from './client.js';
export { FILLED_BY_CUSTOM, responseName } from './action-result.js';
export type { ActionResponse, ActionServerResult } from './action-result.js';
export { DOMAIN_FORMAT_VERSION, canonicalJson, domainDigest, domainToJson } from './domain-json.js';
export type { DomainJson, JsonObject } from './domain-json.js';
export {
  DEFAULT_ACTION_TIMEOUT_SECONDS,
  DEFAULT_TOKEN_NAME,
  parseActionEndpoint,
} from './endpoint-config.js';
export type {
  ActionEndpoint,
  ActionEndpointConfig,
  BasicAuth,
  ParseActionEndpointResult,
} from './endpoint-config.js';
export { ActionServerError, isActionServerError } from './errors.js';
export type { ActionServerErrorCode, ActionServerErrorOptions } from './errors.js';
