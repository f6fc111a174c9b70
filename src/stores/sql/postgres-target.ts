/**
 * Where a PostgreSQL store connects, read from Rasa's keys: `url` (a host, `host:port`, or a whole
 * `postgresql://` URL used as it is), `port`, `db`, `username`, `password`, `login_db`, `query` (extra
 * connection parameters such as `sslmode`) and `schema` (Rasa reads it from POSTGRESQL_SCHEMA only).
 */
import type { ConfigReader } from '../config-reader.js';

export interface PostgresTarget {
  readonly dialect: 'postgresql';
  /** connection string of the working database, credentials included */
  readonly url: string;
  readonly database: string;
  /** a database to connect to first, to create `database` when it does not exist (Rasa's `login_db`) */
  readonly loginDb?: string;
  /** becomes the connection's search_path; it must exist */
  readonly schema?: string;
  /** "postgresql at host:port/db": for logs, without credentials */
  readonly description: string;
}

export const POSTGRES_KEYS = [
  'url',
  'host',
  'port',
  'db',
  'username',
  'password',
  'login_db',
  'query',
  'schema',
];

const SCHEME = /^postgres(?:ql)?(?:\+\w+)?:\/\//i;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/;

export function isPostgresUrl(url: string): boolean {
  return SCHEME.test(url);
}

/** The target of a block whose dialect is PostgreSQL; undefined when the reader collected problems. */
export function readPostgresTarget(
  reader: ConfigReader,
  env: Readonly<Record<string, string | undefined>>,
): PostgresTarget | undefined {
  const url = reader.string('url') ?? reader.string('host');
  const schema = reader.string('schema') ?? env['POSTGRESQL_SCHEMA'];
  if (schema !== undefined && !IDENTIFIER.test(schema))
    reader.problem(`${reader.section}.schema '${schema}' must be a plain SQL identifier`);
  const loginDb = reader.string('login_db');
  const query = reader.stringMap('query') ?? {};
  const connection = url && url.includes('://') ? fromUrl(reader, url) : fromParts(reader, url);
  if (!connection || reader.problems.length > 0) return undefined;
  for (const [name, value] of Object.entries(query)) connection.searchParams.set(name, value);
  const database = decodeURIComponent(connection.pathname.slice(1));
  const port = connection.port || '5432';
  return {
    dialect: 'postgresql',
    url: connection.toString(),
    database,
    ...(loginDb ? { loginDb } : {}),
    ...(schema ? { schema } : {}),
    description: `postgresql at ${connection.hostname}:${port}/${database}${schema ? ` (schema ${schema})` : ''}`,
  };
}

/** The connection string of another database on the same server (for `login_db`). */
export function urlOfDatabase(target: PostgresTarget, database: string): string {
  const url = new URL(target.url);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

function fromUrl(reader: ConfigReader, url: string): URL | undefined {
  if (!isPostgresUrl(url)) {
    reader.problem(`${reader.section}.url '${url.split('://')[0]}://…' is not a PostgreSQL URL`);
    return undefined;
  }
  const parsed = parseUrl(reader, url.replace(SCHEME, 'postgresql://'));
  if (parsed && parsed.pathname.length <= 1) {
    const db = reader.string('db');
    if (db) parsed.pathname = `/${encodeURIComponent(db)}`;
    else reader.problem(`${reader.section}.url names no database and ${reader.section}.db is not set`);
  }
  return parsed;
}

function fromParts(reader: ConfigReader, host: string | undefined): URL | undefined {
  // Rasa lets `url` carry the port ("db.internal:5433"); a `port` key is used otherwise
  const parsed = parseUrl(reader, `postgresql://${host ?? 'localhost'}`);
  const port = reader.integer('port', { min: 1, max: 65535 });
  const db = reader.string('db');
  if (!db) reader.problem(`${reader.section}.db (the database name) is required for PostgreSQL`);
  if (!parsed || !db) return undefined;
  if (!parsed.port && port !== undefined) parsed.port = String(port);
  const username = reader.string('username');
  const password = reader.string('password');
  if (username) parsed.username = encodeURIComponent(username);
  if (password) parsed.password = encodeURIComponent(password);
  parsed.pathname = `/${encodeURIComponent(db)}`;
  return parsed;
}

function parseUrl(reader: ConfigReader, url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    reader.problem(`${reader.section}.url is not a valid host or URL`);
    return undefined;
  }
}
