/**
 * Push notification configs (spec/a2a.md §2.7) as Parley keeps them, and their two wire shapes: v0.3
 * wraps `{taskId, pushNotificationConfig: {id, url, token, authentication: {schemes, credentials}}}`,
 * v1.0 is flat `{id, taskId, url, token, authentication: {scheme, credentials}}`. A config remembers
 * the version that set it: its notifications are sent in that version's shape.
 */
import { invalidParams } from '../a2a-error.js';
import type { WireVersion } from '../jsonrpc/errors.js';
import { optionalRecord, optionalStrings, optionalText, record, text } from '../jsonrpc/params.js';
import type { Json } from '../jsonrpc/params.js';

export interface PushConfig {
  readonly id: string;
  readonly taskId: string;
  readonly url: string;
  readonly token?: string;
  /** HTTP auth schemes (v0.3 lists several, v1.0 one); the first is used */
  readonly schemes?: readonly string[];
  readonly credentials?: string;
  readonly version: WireVersion;
}

/** a config as sent, before the server gave it an id */
export type PushConfigInput = Omit<PushConfig, 'id'> & { readonly id?: string };

/** RFC 9110 token: what an auth scheme may be */
const SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function readSetParams(params: unknown, version: WireVersion): PushConfigInput {
  const body = record(params, 'params');
  if (version === '1.0') {
    const auth = optionalRecord(body['authentication'], 'authentication');
    const scheme = auth ? text(auth['scheme'], 'authentication.scheme') : undefined;
    return input(body, text(body['taskId'], 'taskId'), version, 'authentication', {
      schemes: scheme ? [scheme] : undefined,
      credentials: auth ? optionalText(auth['credentials'], 'authentication.credentials') : undefined,
    });
  }
  const config = record(body['pushNotificationConfig'], 'pushNotificationConfig');
  const auth = optionalRecord(config['authentication'], 'pushNotificationConfig.authentication');
  const schemes = auth
    ? optionalStrings(auth['schemes'], 'pushNotificationConfig.authentication.schemes')
    : undefined;
  if (auth && (!schemes || schemes.length === 0))
    throw invalidParams('authentication.schemes must list a scheme', 'pushNotificationConfig.authentication');
  return input(config, text(body['taskId'], 'taskId'), version, 'pushNotificationConfig', {
    schemes,
    credentials: auth
      ? optionalText(auth['credentials'], 'pushNotificationConfig.authentication.credentials')
      : undefined,
  });
}

function input(
  body: Json,
  taskId: string,
  version: WireVersion,
  prefix: string,
  auth: { schemes: readonly string[] | undefined; credentials: string | undefined },
): PushConfigInput {
  const field = (name: string) => (version === '1.0' ? name : `${prefix}.${name}`);
  const id = optionalText(body['id'], field('id'));
  const token = optionalText(body['token'], field('token'));
  for (const scheme of auth.schemes ?? [])
    if (!SCHEME.test(scheme))
      throw invalidParams(
        `authentication scheme ${scheme} is not an HTTP auth scheme`,
        field('authentication'),
      );
  // header values: a CR or LF would let a client add headers of its own to the notification
  for (const value of [token, auth.credentials])
    if (value !== undefined && /[\r\n\0]/.test(value))
      throw invalidParams('token and credentials must be one line of text', field('token'));
  return {
    taskId,
    url: text(body['url'], field('url')),
    version,
    ...(id !== undefined ? { id } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(auth.schemes !== undefined ? { schemes: auth.schemes } : {}),
    ...(auth.credentials !== undefined ? { credentials: auth.credentials } : {}),
  };
}

/** `{taskId, configId?}` of get and delete: v0.3 `{id, pushNotificationConfigId}`, v1.0 `{taskId, id}` */
export function readConfigRef(params: unknown, version: WireVersion): { taskId: string; configId?: string } {
  const body = record(params, 'params');
  const taskId = text(body[version === '1.0' ? 'taskId' : 'id'], version === '1.0' ? 'taskId' : 'id');
  const field = version === '1.0' ? 'id' : 'pushNotificationConfigId';
  const configId = optionalText(body[field], field);
  return configId === undefined ? { taskId } : { taskId, configId };
}

export function readListTaskId(params: unknown, version: WireVersion): string {
  const body = record(params, 'params');
  return text(body[version === '1.0' ? 'taskId' : 'id'], version === '1.0' ? 'taskId' : 'id');
}

export function configJson(config: PushConfig, version: WireVersion): Json {
  const optional = {
    ...(config.token !== undefined ? { token: config.token } : {}),
  };
  if (version === '1.0')
    return {
      id: config.id,
      taskId: config.taskId,
      url: config.url,
      ...optional,
      ...(config.schemes ? { authentication: { scheme: config.schemes[0], ...credentials(config) } } : {}),
    };
  return {
    taskId: config.taskId,
    pushNotificationConfig: {
      id: config.id,
      url: config.url,
      ...optional,
      ...(config.schemes ? { authentication: { schemes: config.schemes, ...credentials(config) } } : {}),
    },
  };
}

function credentials(config: PushConfig): Json {
  return config.credentials !== undefined ? { credentials: config.credentials } : {};
}
