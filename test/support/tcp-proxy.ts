/**
 * A TCP proxy for tests that need a database to go away and come back without stopping the real
 * server: point a store at the proxy's port, then `pause()` cuts every connection and refuses new
 * ones (the listening socket is closed, so connecting gets ECONNREFUSED, as from a stopped
 * PostgreSQL), and `resume()` listens again on the same port.
 */
import { createServer, connect } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

export interface TcpProxyOptions {
  readonly targetHost: string;
  readonly targetPort: number;
  /** the port to listen on; 0 (default) lets the system choose */
  readonly port?: number;
}

export class TcpProxy {
  private readonly options: TcpProxyOptions;
  private server: Server | undefined;
  /** both sides of every proxied connection */
  private readonly sockets = new Set<Socket>();
  private readonly clients = new Set<Socket>();
  private listeningPort = 0;
  private frozen = false;
  private acceptedCount = 0;
  private freezeAfterNextSend: (() => void) | undefined;

  private constructor(options: TcpProxyOptions) {
    this.options = options;
  }

  static async start(options: TcpProxyOptions): Promise<TcpProxy> {
    const proxy = new TcpProxy(options);
    await proxy.listen(options.port ?? 0);
    return proxy;
  }

  get port(): number {
    return this.listeningPort;
  }

  get paused(): boolean {
    return this.server === undefined || this.frozen;
  }

  /** client connections accepted since the start, frozen ones included: a retry shows up here */
  get accepted(): number {
    return this.acceptedCount;
  }

  /** client-side connections open now */
  get connections(): number {
    return this.clients.size;
  }

  /**
   * `refuse` (default): destroys every connection (both sides) and stops accepting new ones, as a
   * stopped server. `freeze`: connections stay open but nothing passes any more and new ones are
   * accepted and left hanging, as a server that hangs or a network that drops packets.
   */
  async pause(mode: 'refuse' | 'freeze' = 'refuse'): Promise<void> {
    if (mode === 'freeze') {
      this.frozen = true;
      for (const socket of this.sockets) {
        socket.unpipe();
        socket.pause();
      }
      return;
    }
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    this.cut();
    await closed;
  }

  /**
   * Freezes (as `pause('freeze')`) the moment the next bytes from a client have been passed on, so
   * that a statement is surely under way when the database stops answering. Resolves once frozen.
   */
  freezeMidStatement(): Promise<void> {
    return new Promise((resolve) => {
      this.freezeAfterNextSend = () => {
        this.freezeAfterNextSend = undefined;
        void this.pause('freeze').then(resolve);
      };
    });
  }

  /** Accepts connections again, on the same port. */
  async resume(): Promise<void> {
    if (this.frozen) {
      // what hung is gone (clients have given up on it); new connections work again
      this.frozen = false;
      this.cut();
    }
    if (!this.server) await this.listen(this.listeningPort);
  }

  async close(): Promise<void> {
    await this.pause();
  }

  private cut(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.clients.clear();
  }

  private async listen(port: number): Promise<void> {
    const server: Server = createServer((client) => this.pipe(client, server));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.listeningPort = (server.address() as AddressInfo).port;
    this.server = server;
  }

  private pipe(client: Socket, server: Server): void {
    // a connection the kernel accepted just before `pause()` closed the listener: refused too
    if (server !== this.server) {
      client.destroy();
      return;
    }
    this.acceptedCount += 1;
    if (this.frozen) {
      // accepted, never answered
      this.sockets.add(client);
      this.clients.add(client);
      client.pause();
      client.on('error', () => undefined);
      client.on('close', () => {
        this.sockets.delete(client);
        this.clients.delete(client);
      });
      return;
    }
    const upstream = connect(this.options.targetPort, this.options.targetHost);
    this.clients.add(client);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      // one side failing or closing takes the other down, as a dead server would
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        this.clients.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
    // after pipe's own listener: the bytes have been written upstream when this runs
    client.on('data', () => this.freezeAfterNextSend?.());
  }
}
