import { createServer as createHttpServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { InputChannel } from '../channels/channel.js';
import type { TurnGate } from './turn-gate.js';

export interface TlsFiles {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly ca?: Buffer;
  readonly passphrase?: string;
}

export interface ListenOptions {
  /** the app (`createRequestListener`, or an Express app) */
  readonly app: RequestListener;
  readonly gate: TurnGate;
  readonly channels: readonly InputChannel[];
  readonly port: number;
  readonly host: string;
  readonly tls?: TlsFiles;
  /** closed last on shutdown, after the turns in flight (stores) */
  readonly onClosed?: () => Promise<void>;
  /** how long a connection still sending a response may stay open after the last turn finished (2 s) */
  readonly closeGraceMs?: number;
}

export interface RunningServer {
  readonly server: Server;
  /** the address actually bound (port 0 → the port chosen) */
  readonly port: number;
  readonly baseUrl: string;
  /** stop accepting, let running turns finish, close channels, then `onClosed` */
  close(): Promise<void>;
}

/** Starts the HTTP(S) server for the app and attaches the channels that need it (socket.io). */
export async function listen(options: ListenOptions): Promise<RunningServer> {
  const server = options.tls
    ? createHttpsServer(
        {
          cert: options.tls.cert,
          key: options.tls.key,
          ...(options.tls.ca ? { ca: options.tls.ca } : {}),
          ...(options.tls.passphrase ? { passphrase: options.tls.passphrase } : {}),
        },
        options.app,
      )
    : createHttpServer(options.app);
  for (const channel of options.channels) channel.attach?.(server, options.gate);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  let closing: Promise<void> | undefined;
  return {
    server,
    port,
    baseUrl: `${options.tls ? 'https' : 'http'}://${shownHost}:${port}`,
    close: () => (closing ??= shutDown(server, options)),
  };
}

const DEFAULT_CLOSE_GRACE_MS = 2_000;

async function shutDown(server: Server, options: ListenOptions): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await options.gate.drain();
  // the last turns' responses are written in the continuations that follow the drain
  await new Promise((resolve) => setImmediate(resolve));
  for (const channel of options.channels) await channel.close?.();
  server.closeIdleConnections();
  const grace = setTimeout(
    () => server.closeAllConnections(),
    options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS,
  );
  await stopped;
  clearTimeout(grace);
  await options.onClosed?.();
}
