import { Command, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ApiAuthConfig } from '../server/auth.js';
import type { TlsFiles } from '../server/http-server.js';
import type { Logger } from '../runtime/logger.js';
import type { CliIo } from './io.js';
import { addLoggingOptions, rasaVersionOption, requestedLogLevel } from './common-options.js';
import type { LoggingFlags } from './common-options.js';
import { toLocation } from './project-options.js';
import type { ProjectFlags } from './project-options.js';

export interface RunFlags extends ProjectFlags, LoggingFlags {
  readonly port: string;
  readonly interface: string;
  readonly enableApi?: boolean;
  readonly cors?: string[];
  readonly connector?: string;
  readonly model?: string;
  readonly authToken?: string;
  readonly jwtSecret?: string;
  readonly jwtMethod: string;
  readonly jwtPrivateKey?: string;
  readonly sslCertificate?: string;
  readonly sslKeyfile?: string;
  readonly sslCaFile?: string;
  readonly sslPassword?: string;
  readonly rasaVersion?: string;
  readonly metricsWithoutAuth?: boolean;
  readonly workers: string;
}

/** more processes than this would fight over the cores rather than use them */
const MAX_WORKERS = 64;

/** `parley run`: serves the assistant (channels, HTTP API, A2A) on one port, with Rasa's flags. */
export function runCommand(io: CliIo, signals: NodeJS.EventEmitter = process): Command {
  const command = serverOptions(
    new Command('run').description('serve the assistant: channels, the HTTP API and A2A on one port'),
  )
    .option('--enable-api', 'serve the HTTP API')
    .option('--workers <n>', 'worker processes serving the port (needs stores every worker shares)', '1');
  return addLoggingOptions(command).action(async (flags: RunFlags) => {
    io.setExitCode(await runServer(io, flags, signals));
  });
}

/** What the server is started with; the options `parley run` and `parley inspect` share. */
export function serverOptions(command: Command): Command {
  return command
    .option('--project <dir>', 'the assistant folder', '.')
    .option('-d, --domain <path>', 'domain file or folder')
    .option('--data <paths...>', 'training data files or folders')
    .option('-c, --config <path>', 'config file')
    .option('--endpoints <path>', 'endpoints file (default: endpoints.yml in the project)')
    .option('--credentials <path>', 'credentials file (default: credentials.yml in the project)')
    .option(
      '-m, --model <path>',
      'model archive, or a folder whose newest archive is used (default: models/)',
    )
    .option('-p, --port <port>', 'port to listen on', '5005')
    .option('-i, --interface <host>', 'network interface to listen on', '0.0.0.0')
    .option('--cors [origins...]', 'allowed CORS origins (* for all)')
    .option('--connector <name>', 'serve only this channel of credentials.yml')
    .addOption(new Option('-t, --auth-token <token>', 'token for the HTTP API').env('AUTH_TOKEN'))
    .addOption(
      new Option('--jwt-secret <secret>', 'JWT secret or public key for the HTTP API').env('JWT_SECRET'),
    )
    .addOption(new Option('--jwt-method <alg>', 'JWT algorithm').env('JWT_METHOD').default('HS256'))
    .addOption(new Option('--jwt-private-key <key>', 'JWT private key (asymmetric)').env('JWT_PRIVATE_KEY'))
    .option('--ssl-certificate <file>', 'TLS certificate (serves HTTPS)')
    .option('--ssl-keyfile <file>', 'TLS private key')
    .option('--ssl-ca-file <file>', 'TLS CA bundle')
    .option('--ssl-password <password>', 'passphrase of the TLS key')
    .addOption(rasaVersionOption('reproduce the default pattern behaviour of this Rasa version'))
    .option(
      '--metrics-without-auth',
      'serve /metrics without the HTTP API auth (for a scraper on a private network)',
    );
}

/** What runs once the server is up (`parley inspect` prints and opens the page's URL). */
export type OnServing = (baseUrl: string) => void;

export async function runServer(
  io: CliIo,
  flags: RunFlags,
  signals: NodeJS.EventEmitter,
  onServing?: OnServing,
): Promise<number> {
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    io.stderr(`parley run: ${portProblem(flags.port)}\n`);
    return 2;
  }
  const tls = tlsFiles(flags);
  if (typeof tls === 'string') {
    io.stderr(`parley run: ${tls}\n`);
    return 2;
  }
  const workers = Number(flags.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
    io.stderr(
      `parley run: --workers must be a whole number from 1 to ${MAX_WORKERS}, not '${flags.workers}'.\n`,
    );
    return 2;
  }
  const level = requestedLogLevel(flags);
  const { createLogger } = await import('./logger.js');
  const logOptions = { defaultLevel: 'info', ...(level ? { level } : {}) };
  const logger = createLogger(logOptions);
  // a failed start is logged in the same format, through the command's own stderr
  const failureLog = createLogger({
    ...logOptions,
    destination: { write: (line: string) => io.stderr(line) },
  });
  const { isPortInUse, logStartUpFailure, portInUseError } = await import('./start-up-failure.js');
  const failed = (error: unknown): number => {
    logStartUpFailure(failureLog, error, logger.isLevelEnabled('debug'));
    return 1;
  };
  // before the model is trained or loaded: a taken port would only be found at the very end (a worker
  // of --workers shares the port its primary checked, and would find it taken by its siblings)
  const worker = (await import('./workers.js')).isWorker();
  if (!worker && (await isPortInUse(flags.interface, port))) return failed(portInUseError(port));
  if (workers > 1 && !worker) {
    const { runPrimary } = await import('./run-workers.js');
    return runPrimary(io, {
      flags,
      workers,
      host: flags.interface,
      tls: tls !== undefined,
      logger,
      signals,
      failed,
    });
  }
  // every request path catches its own failures; should one slip through, it is a bug to report, not a
  // reason for one caller to take the server down for every other caller
  const onUnhandled = (reason: unknown) => {
    logger.error(
      { error: reason instanceof Error ? reason.message : String(reason) },
      'unhandled promise rejection (a bug: please report it)',
    );
  };
  process.on('unhandledRejection', onUnhandled);
  try {
    return await serveUntilStopped(io, {
      flags,
      port,
      tls,
      logger,
      signals,
      failed,
      ...(onServing ? { onServing } : {}),
    });
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
}

async function serveUntilStopped(
  io: CliIo,
  options: {
    flags: RunFlags;
    port: number;
    tls: TlsFiles | undefined;
    logger: Logger;
    signals: NodeJS.EventEmitter;
    onServing?: OnServing;
    /** logs a failed start and gives the exit code */
    failed: (error: unknown) => number;
  },
): Promise<number> {
  const { flags, port, tls, logger, signals } = options;
  const { startServer } = await import('./serve.js');
  let server;
  try {
    server = await startServer({
      location: toLocation({ ...flags, project: flags.project }),
      projectRoot: resolve(flags.project),
      port,
      host: flags.interface,
      logger,
      ...(flags.connector ? { connector: flags.connector } : {}),
      ...(flags.cors ? { cors: flags.cors } : {}),
      ...(tls ? { tls } : {}),
      ...(flags.rasaVersion ? { rasaVersion: flags.rasaVersion } : {}),
      ...(flags.model ? { modelPath: flags.model } : {}),
      ...(flags.enableApi ? { enableApi: true, auth: apiAuth(flags) } : {}),
      ...(flags.metricsWithoutAuth ? { metricsWithoutAuth: true } : {}),
    });
  } catch (error) {
    const { asStartUpError } = await import('./start-up-failure.js');
    const code = options.failed(asStartUpError(error, port));
    await (await import('./logger.js')).flushLogs(logger);
    return code;
  }
  const running = server;
  // the handlers come before the line saying the server is up: whoever reads it may stop it at once
  const stopped = new Promise<void>((done) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down: finishing the turns in flight');
      void running.close().then(done);
    };
    signals.once('SIGTERM', () => stop('SIGTERM'));
    signals.once('SIGINT', () => stop('SIGINT'));
  });
  io.stdout(`Parley server is up and running at ${server.baseUrl} (${server.summary.join('; ')}).\n`);
  logger.info({ url: server.baseUrl, summary: server.summary }, 'server started');
  options.onServing?.(server.baseUrl);
  await stopped;
  await (await import('./logger.js')).flushLogs(logger);
  io.stdout('Parley server stopped.\n');
  (await import('./workers.js')).leaveCluster();
  return 0;
}

/**
 * `-p` is the port, as in `rasa run -p 5005`; a value that is no port number is most likely a project
 * folder typed as in `parley validate -p <dir>`, so the message points at `--project`.
 */
function portProblem(value: string): string {
  const looksLikeNumber = /^\s*-?\d+(\.\d*)?\s*$/.test(value);
  return looksLikeNumber
    ? `-p/--port must be a port number from 0 to 65535, not '${value}'.`
    : `-p/--port must be a port number, not '${value}'. -p is the port, as in Rasa; for the assistant ` +
        `folder use --project (parley run --project ${value}).`;
}

/** The HTTP API's auth flags (or AUTH_TOKEN, JWT_SECRET, JWT_METHOD, JWT_PRIVATE_KEY); empty ones are unset. */
function apiAuth(flags: RunFlags): ApiAuthConfig {
  return {
    ...(flags.authToken ? { token: flags.authToken } : {}),
    ...(flags.jwtSecret ? { jwtSecret: flags.jwtSecret, jwtMethod: flags.jwtMethod } : {}),
    ...(flags.jwtPrivateKey ? { jwtPrivateKey: flags.jwtPrivateKey } : {}),
  };
}

function tlsFiles(flags: RunFlags): TlsFiles | string | undefined {
  if (!flags.sslCertificate && !flags.sslKeyfile) return undefined;
  if (!flags.sslCertificate || !flags.sslKeyfile)
    return '--ssl-certificate and --ssl-keyfile must be given together.';
  try {
    return {
      cert: readFileSync(flags.sslCertificate),
      key: readFileSync(flags.sslKeyfile),
      ...(flags.sslCaFile ? { ca: readFileSync(flags.sslCaFile) } : {}),
      ...(flags.sslPassword ? { passphrase: flags.sslPassword } : {}),
    };
  } catch (error) {
    return `cannot read the TLS files: ${error instanceof Error ? error.message : String(error)}`;
  }
}
