import { createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** How the socket.io channel verifies the token a client sends in its handshake (`auth: {token}`). */
export interface JwtSettings {
  readonly key: Uint8Array | KeyObject;
  readonly algorithms: readonly string[];
}

/** The `socketio:` block of credentials.yml, with Rasa's defaults filled in. */
export interface SocketIoSettings {
  readonly userMessageEvent: string;
  readonly botMessageEvent: string;
  readonly sessionPersistence: boolean;
  /** the engine path on the main port, e.g. `/socket.io` */
  readonly path: string;
  /** the socket.io namespace, `/` when none is configured */
  readonly namespace: string;
  readonly metadataKey: string;
  readonly jwt?: JwtSettings;
  /** Rasa's voice-only silence timeout: recognised so that it can be reported as unsupported */
  readonly silenceTimeoutRequested: boolean;
}

const HMAC_ALGORITHMS = new Set(['HS256', 'HS384', 'HS512']);
const PUBLIC_KEY_ALGORITHMS = new Set([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
]);

/** Events socket.io itself uses: a channel event with one of these names would never arrive. */
const RESERVED_EVENTS = new Set([
  'connect',
  'connect_error',
  'disconnect',
  'disconnecting',
  'newListener',
  'removeListener',
  'session_request',
  'session_confirm',
]);

/**
 * Reads the credentials block; every unusable key is reported at once, in one Error the channel
 * selection turns into PROJECT_INVALID.
 */
export function socketIoSettingsOf(credentials: Readonly<Record<string, unknown>>): SocketIoSettings {
  const problems: string[] = [];
  const text = (key: string, fallback: string): string => {
    const value = credentials[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    problems.push(`'${key}' must be a non-empty string.`);
    return fallback;
  };
  const event = (key: string, fallback: string): string => {
    const name = text(key, fallback);
    if (RESERVED_EVENTS.has(name))
      problems.push(`'${key}' may not be '${name}': socket.io or the channel uses it.`);
    return name;
  };
  const userMessageEvent = event('user_message_evt', 'user_uttered');
  const botMessageEvent = event('bot_message_evt', 'bot_uttered');
  const settings = {
    userMessageEvent,
    botMessageEvent,
    sessionPersistence: flag(credentials, 'session_persistence', problems),
    path: normalisedPath(text('socketio_path', '/socket.io')),
    namespace: normalisedNamespace(text('namespace', '/')),
    metadataKey: text('metadata_key', 'metadata'),
    silenceTimeoutRequested: flag(credentials, 'enable_silence_timeout', problems),
  };
  const jwt = jwtSettingsOf(credentials, problems);
  if (problems.length > 0) throw new Error(problems.join(' '));
  return jwt ? { ...settings, jwt } : settings;
}

function flag(credentials: Readonly<Record<string, unknown>>, key: string, problems: string[]): boolean {
  const value = credentials[key];
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  // `${VAR}` interpolation leaves strings behind
  if (value === 'true' || value === 'True') return true;
  if (value === 'false' || value === 'False') return false;
  problems.push(`'${key}' must be true or false.`);
  return false;
}

function normalisedPath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed || '/socket.io' : `/${trimmed}`;
}

function normalisedNamespace(namespace: string): string {
  return namespace.startsWith('/') ? namespace : `/${namespace}`;
}

function jwtSettingsOf(
  credentials: Readonly<Record<string, unknown>>,
  problems: string[],
): JwtSettings | undefined {
  const key = credentials['jwt_key'];
  if (key === undefined || key === null || key === '') return undefined;
  if (typeof key !== 'string') {
    problems.push("'jwt_key' must be a string.");
    return undefined;
  }
  const method = credentials['jwt_method'] ?? 'HS256';
  const algorithms = Array.isArray(method) ? method : [method];
  const unknown = algorithms.filter(
    (name) => typeof name !== 'string' || (!HMAC_ALGORITHMS.has(name) && !PUBLIC_KEY_ALGORITHMS.has(name)),
  );
  if (unknown.length > 0 || algorithms.length === 0) {
    problems.push(
      `'jwt_method' must name JWT algorithms (HS256, RS256, ES256, ...), not ${JSON.stringify(method)}.`,
    );
    return undefined;
  }
  const names = algorithms as string[];
  const hmac = names.every((name) => HMAC_ALGORITHMS.has(name));
  if (!hmac && names.some((name) => HMAC_ALGORITHMS.has(name))) {
    problems.push("'jwt_method' may not mix HMAC (HS*) and public-key algorithms: they need different keys.");
    return undefined;
  }
  if (hmac) return { key: new TextEncoder().encode(key), algorithms: names };
  try {
    // a PEM public key or certificate, checked now so that a bad key stops the server at start-up
    return { key: createPublicKey(key), algorithms: names };
  } catch (error) {
    problems.push(`'jwt_key' is not a PEM public key for ${names.join(', ')}: ${String(error)}.`);
    return undefined;
  }
}
