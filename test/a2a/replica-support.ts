/** Real `parley run` processes (from dist/) and a round-robin proxy in front of them, for replica tests. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Sends each request to the next target in turn, streaming bodies both ways. */
export async function roundRobin(): Promise<{ url: string; targets: string[]; close: () => Promise<void> }> {
  const targets: string[] = [];
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const target = new URL(targets[next++ % targets.length] as string);
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function parleyRun(
  root: string,
  env: Readonly<Record<string, string>> = {},
): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(
    process.execPath,
    ['bin/parley.js', 'run', '--port', '0', '-i', '127.0.0.1', '--project', root],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/[^ ]+) /.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`parley run exited (${code}): ${output}`)));
  });
  return { url, child, output: () => output };
}
