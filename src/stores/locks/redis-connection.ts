/**
 * Connection settings of a Redis lock store from Rasa's keys: `host` (`url` is Rasa's deprecated alias;
 * a whole `redis://` / `rediss://` URL is used as it is), `port` (6379), `db` (0; 1 for
 * concurrent_redis), `username` + `password`, `use_ssl` with `ssl_certfile`, `ssl_keyfile`,
 * `ssl_ca_certs` (files, relative to the project), `socket_timeout` (s, 10) and `key_prefix`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RedisOptions } from 'ioredis';
import type { ConfigReader } from '../config-reader.js';

export interface RedisConnection {
  /** a redis:// URL given in `host`/`url`, used as it is (the other options still apply) */
  readonly url?: string;
  readonly options: RedisOptions;
  /** prefix of every key (`<key_prefix>:` or nothing) */
  readonly keyPrefix: string;
  /** "redis at host:6379/0": for logs, without credentials */
  readonly description: string;
}

export const REDIS_KEYS = [
  'host',
  'url',
  'port',
  'db',
  'username',
  'password',
  'use_ssl',
  'ssl_certfile',
  'ssl_keyfile',
  'ssl_ca_certs',
  'socket_timeout',
  'key_prefix',
  'deployment_mode',
];

export function readRedisConnection(
  reader: ConfigReader,
  options: { projectRoot: string; defaultDb: number },
): RedisConnection | undefined {
  const host = hostOf(reader);
  const port = reader.integer('port', { min: 1, max: 65535 }) ?? 6379;
  const db = reader.integer('db', { min: 0, max: 1_000_000 }) ?? options.defaultDb;
  const username = reader.string('username');
  const password = reader.string('password');
  if (username && !password) reader.problem(`${reader.section}.username needs a password`);
  const keyPrefix = reader.string('key_prefix');
  if (keyPrefix !== undefined && !/^[A-Za-z0-9]+$/.test(keyPrefix))
    reader.problem(
      `${reader.section}.key_prefix must be letters and digits only (Rasa's rule), not '${keyPrefix}'`,
    );
  const mode = reader.string('deployment_mode') ?? 'standard';
  if (mode !== 'standard')
    reader.problem(`${reader.section}.deployment_mode '${mode}' is not supported yet (only standard)`);
  const timeoutMs = (reader.seconds('socket_timeout') ?? 10) * 1000;
  const tls = reader.boolean('use_ssl') ? tlsOptions(reader, options.projectRoot) : undefined;
  if (reader.problems.length > 0) return undefined;
  const url = host.includes('://') ? host : undefined;
  const shownHost = url ? new URL(url).host : `${host}:${port}`;
  return {
    ...(url ? { url } : {}),
    options: {
      ...(url ? {} : { host, port, db }),
      ...(url && reader.has('db') ? { db } : {}),
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
      ...(tls ? { tls } : {}),
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
      // fail a command after one reconnection attempt instead of queueing it while Redis is down
      maxRetriesPerRequest: 1,
      retryStrategy: reconnectDelay,
      lazyConnect: true,
    },
    keyPrefix: keyPrefix ? `${keyPrefix}:` : '',
    description: `redis at ${shownHost}${url ? '' : `/${db}`}`,
  };
}

/**
 * Every turn takes a lock, so each second between Redis coming back and the client noticing is a
 * second of 503s: try again at least once a second (ioredis' own backoff grows to 5 s).
 */
export const MAX_RECONNECT_DELAY_MS = 1000;

function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS);
}

function hostOf(reader: ConfigReader): string {
  const host = reader.string('host');
  const url = reader.string('url');
  if (host && url && host !== url)
    reader.problem(
      `${reader.section} has both host and url (url is Rasa's deprecated name of host): keep one`,
    );
  return host ?? url ?? 'localhost';
}

function tlsOptions(reader: ConfigReader, projectRoot: string): NonNullable<RedisOptions['tls']> {
  const file = (key: string): Buffer | undefined => {
    const path = reader.string(key);
    if (path === undefined) return undefined;
    try {
      return readFileSync(resolve(projectRoot, path));
    } catch (error) {
      reader.problem(`${reader.section}.${key} cannot be read: ${(error as Error).message}`);
      return undefined;
    }
  };
  const cert = file('ssl_certfile');
  const key = file('ssl_keyfile');
  const ca = file('ssl_ca_certs');
  return { ...(cert ? { cert } : {}), ...(key ? { key } : {}), ...(ca ? { ca } : {}) };
}
