/**
 * Which database a SQL tracker store uses, from a `tracker_store: {type: sql, ...}` block with Rasa's
 * keys: `dialect` (sqlite by default, or postgresql), `db` (for SQLite a file, relative to the project;
 * Rasa's default `rasa.db`) and the PostgreSQL keys of postgres-target.ts.
 */
import { resolve } from 'node:path';
import type { ConfigReader } from '../config-reader.js';
import type { PostgresTarget } from './postgres-target.js';
import { POSTGRES_KEYS, isPostgresUrl, readPostgresTarget } from './postgres-target.js';

export interface SqliteTarget {
  readonly dialect: 'sqlite';
  /** absolute path of the database file, or ':memory:' */
  readonly filename: string;
  /** "sqlite at /srv/bot/.parley/tracker.db": the absolute path */
  readonly description: string;
}

export type SqlTarget = SqliteTarget | PostgresTarget;

export const SQL_KEYS = ['type', 'dialect', ...POSTGRES_KEYS];

/** Where the tracker store lives when endpoints.yml names none: a file inside the project. */
export const DEFAULT_SQLITE_FILE = '.parley/tracker.db';

export function sqliteTarget(file: string, projectRoot: string): SqliteTarget {
  if (file === ':memory:') return { dialect: 'sqlite', filename: file, description: 'sqlite in memory' };
  const filename = resolve(projectRoot, file);
  // the absolute path: a path relative to the project reads as relative to the folder `parley run` was
  // started from, and /status is read by people who know neither
  return { dialect: 'sqlite', filename, description: `sqlite at ${filename}` };
}

export function readSqlTarget(
  reader: ConfigReader,
  options: {
    projectRoot: string;
    env: Readonly<Record<string, string | undefined>>;
    /** the SQLite file when `db` is not given (Rasa's tracker store: rasa.db; its SQL event broker: events.db) */
    defaultSqliteFile?: string;
  },
): SqlTarget | undefined {
  const url = reader.string('url');
  const dialect = dialectOf(reader, url);
  if (dialect === 'postgresql') return readPostgresTarget(reader, options.env);
  if (dialect !== 'sqlite') return undefined;
  if (reader.has('login_db')) reader.problem(`${reader.section}.login_db can only be used with PostgreSQL`);
  const file = url?.startsWith('sqlite:')
    ? sqliteFileOfUrl(url)
    : (reader.string('db') ?? options.defaultSqliteFile ?? 'rasa.db');
  return reader.problems.length > 0 ? undefined : sqliteTarget(file, options.projectRoot);
}

function dialectOf(reader: ConfigReader, url: string | undefined): 'sqlite' | 'postgresql' | undefined {
  // a whole URL in `url` decides the dialect, as SQLAlchemy would
  if (url && url.includes('://')) {
    if (isPostgresUrl(url)) return 'postgresql';
    if (url.startsWith('sqlite:')) return 'sqlite';
  }
  const given = (reader.string('dialect') ?? 'sqlite').toLowerCase().split('+')[0];
  if (given === 'sqlite') return 'sqlite';
  if (given === 'postgresql' || given === 'postgres') return 'postgresql';
  reader.problem(`${reader.section}.dialect '${given}' is not supported (use sqlite or postgresql)`);
  return undefined;
}

/** SQLAlchemy's form: sqlite:///relative.db, sqlite:////absolute.db, sqlite:// (in memory). */
function sqliteFileOfUrl(url: string): string {
  const path = url.replace(/^sqlite:\/\/\/?/, '');
  return path === '' || path === ':memory:' ? ':memory:' : path;
}
