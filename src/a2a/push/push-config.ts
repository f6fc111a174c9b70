/**
 * Push notification configs (spec/a2a.md §2.7) as Parley keeps them, and their two wire shapes: v0.3
 * wraps `{taskId, pushNotificationConfig: {id, url, token, authentication: {schemes, credentials}}}`,
 * v1.0 is flat `{id, taskId, url, token, authentication: {scheme, credentials}}`. A config remembers
 * the version that set it: its notifications are sent in that version's shape. The token and the
 * credentials become header values of every notification, so they are checked here with Node's own
 * header rule: a value Node refuses would otherwise be stored and throw at each delivery.
 */
import { validateHeaderValue } from 'node:http';
import { invalidParams } from '../a2a-error.js';
import type { WireVersion } from '../jsonrpc/errors.js';
import {
  identifier,
  optionalIdentifier,
  optionalRecord,
  optionalStrings,
  optionalText,
  record,
  text,
} from '../jsonrpc/params.js';
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

/**
 * Size caps, in characters: configs live in memory and every value is sent again with each
 * notification (token, credentials) or echoed in errors (URL), so a client may not make them large.
 */
export const PUSH_CONFIG_LIMITS = {
  id: 256,
  url: 2_048,
  token: 1_024,
  credentials: 4_096,
  /** auth schemes a v0.3 config lists, and the length of each */
  schemes: 4,
  scheme: 64,
} as const;

/** a config without its task: given with `message/send`, before the task has an id */
export type PushConfigFields = Omit<PushConfigInput, 'taskId'>;

export function readSetParams(params: unknown, version: WireVersion): PushConfigInput {
  const body = record(params, 'params');
  const taskId = identifier(body['taskId'], 'taskId');
  if (version === '1.0') return { taskId, ...flatConfig(body, '') };
  return { taskId, ...wrappedConfig(body['pushNotificationConfig'], 'pushNotificationConfig') };
}

/**
 * A push config given inline with `message/send` or `message/stream`: v0.3
 * `configuration.pushNotificationConfig`, v1.0 `configuration.taskPushNotificationConfig` (its flat shape
 * without `taskId`; `pushNotificationConfig` is read too). Undefined when there is none.
 */
export function readInlineConfig(configuration: Json, version: WireVersion): PushConfigFields | undefined {
  if (version === '1.0') {
    const name =
      configuration['taskPushNotificationConfig'] !== undefined
        ? 'taskPushNotificationConfig'
        : 'pushNotificationConfig';
    const config = optionalRecord(configuration[name], `configuration.${name}`);
    return config ? flatConfig(config, `configuration.${name}`) : undefined;
  }
  const config = configuration['pushNotificationConfig'];
  return config === undefined || config === null
    ? undefined
    : wrappedConfig(config, 'configuration.pushNotificationConfig');
}

/** v1.0's flat config: `{id, url, token, authentication: {scheme, credentials}}` */
function flatConfig(body: Json, prefix: string): PushConfigFields {
  const field = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const auth = optionalRecord(body['authentication'], field('authentication'));
  const scheme = auth ? text(auth['scheme'], field('authentication.scheme')) : undefined;
  return fields(body, '1.0', field, {
    schemes: scheme ? [scheme] : undefined,
    credentials: auth ? optionalText(auth['credentials'], field('authentication.credentials')) : undefined,
  });
}

/** v0.3's config: `{id, url, token, authentication: {schemes, credentials}}` */
function wrappedConfig(value: unknown, prefix: string): PushConfigFields {
  const config = record(value, prefix);
  const field = (name: string) => `${prefix}.${name}`;
  const auth = optionalRecord(config['authentication'], field('authentication'));
  const schemes = auth ? optionalStrings(auth['schemes'], field('authentication.schemes')) : undefined;
  if (auth && (!schemes || schemes.length === 0))
    throw invalidParams('authentication.schemes must list a scheme', field('authentication'));
  return fields(config, '0.3', field, {
    schemes,
    credentials: auth ? optionalText(auth['credentials'], field('authentication.credentials')) : undefined,
  });
}

function fields(
  body: Json,
  version: WireVersion,
  field: (name: string) => string,
  auth: { schemes: readonly string[] | undefined; credentials: string | undefined },
): PushConfigFields {
  const credentialsField = field('authentication.credentials');
  const id = optionalIdentifier(body['id'], field('id'), PUSH_CONFIG_LIMITS.id);
  // capped before the URL guard parses it: its errors quote the URL
  const url = bounded(text(body['url'], field('url')), PUSH_CONFIG_LIMITS.url, field('url'));
  const token = bounded(
    optionalText(body['token'], field('token')),
    PUSH_CONFIG_LIMITS.token,
    field('token'),
  );
  const credentials = bounded(auth.credentials, PUSH_CONFIG_LIMITS.credentials, credentialsField);
  if ((auth.schemes?.length ?? 0) > PUSH_CONFIG_LIMITS.schemes)
    throw invalidParams(
      `authentication may list at most ${PUSH_CONFIG_LIMITS.schemes} schemes (the first is used)`,
      field('authentication'),
    );
  for (const scheme of auth.schemes ?? [])
    if (scheme.length > PUSH_CONFIG_LIMITS.scheme || !SCHEME.test(scheme))
      throw invalidParams(
        `authentication schemes must be HTTP auth scheme names (such as Bearer) of at most ${PUSH_CONFIG_LIMITS.scheme} characters`,
        field('authentication'),
      );
  if (token !== undefined) headerValue(token, field('token'));
  // checked as it is sent: `Authorization: <first scheme> <credentials>`
  if (credentials !== undefined) headerValue(`${auth.schemes?.[0] ?? ''} ${credentials}`, credentialsField);
  return {
    url,
    version,
    ...(id !== undefined ? { id } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(auth.schemes !== undefined ? { schemes: auth.schemes } : {}),
    ...(credentials !== undefined ? { credentials } : {}),
  };
}

function bounded<T extends string | undefined>(value: T, max: number, field: string): T {
  if (value !== undefined && value.length > max)
    throw invalidParams(`${field} must be at most ${max} characters`, field);
  return value;
}

/**
 * Node's own rule (tab, printable ASCII, U+0080–U+00FF) covers CR, LF and NUL, so no header injection,
 * and every other character that would make the request throw at delivery. Latin-1 passes Node but
 * arrives garbled (Node writes it as UTF-8, receivers read Latin-1), so a token a receiver compares
 * would never match: it is refused too.
 */
function headerValue(value: string, field: string): void {
  let valid = !/[^\t\x20-\x7e]/.test(value);
  try {
    // the header name only labels Node's error
    validateHeaderValue(field, value);
  } catch {
    valid = false;
  }
  if (!valid)
    throw invalidParams(
      `${field} must be a valid HTTP header value: printable ASCII and tabs only ` +
        '(no control characters, no DEL, no characters beyond ASCII)',
      field,
    );
}

/** `{taskId, configId?}` of get and delete: v0.3 `{id, pushNotificationConfigId}`, v1.0 `{taskId, id}` */
export function readConfigRef(params: unknown, version: WireVersion): { taskId: string; configId?: string } {
  const body = record(params, 'params');
  const taskId = identifier(body[version === '1.0' ? 'taskId' : 'id'], version === '1.0' ? 'taskId' : 'id');
  const field = version === '1.0' ? 'id' : 'pushNotificationConfigId';
  const configId = optionalIdentifier(body[field], field);
  return configId === undefined ? { taskId } : { taskId, configId };
}

export function readListTaskId(params: unknown, version: WireVersion): string {
  const body = record(params, 'params');
  return identifier(body[version === '1.0' ? 'taskId' : 'id'], version === '1.0' ? 'taskId' : 'id');
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
