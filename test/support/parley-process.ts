/** The parley CLI as a child process, for tests that drive it as a user does. */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const REPO_BIN = join(process.cwd(), 'bin', 'parley.js');

export interface Ran {
  readonly code: number | null;
  readonly output: string;
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('OPENAI_') || key === 'LOG_LEVEL') delete env[key];
  return env;
}

/** A program and its arguments in `cwd`, killed at the deadline; stdout and stderr together. */
export function runProgram(
  file: string,
  args: readonly string[],
  cwd: string,
  deadlineMs = 90_000,
): Promise<Ran> {
  const child = spawn(file, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output + (code === null ? `\n(killed after ${deadlineMs} ms)` : '') });
    });
  });
}

/** `parley <args>` through a bin/parley.js (this repository's, or an installed package's). */
export function parley(args: readonly string[], cwd: string, bin = REPO_BIN): Promise<Ran> {
  return runProgram(process.execPath, [bin, ...args], cwd);
}

/** `parley run` on a free loopback port in `cwd`, once it says where it listens. */
export async function startParley(
  cwd: string,
  bin = REPO_BIN,
): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [bin, 'run', '--port', '0', '-i', '127.0.0.1'], {
    cwd,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`parley run did not start: ${output}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/[^ ]+) /.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`parley run exited (${code}): ${output}`)));
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return { url, stop: () => stop(child) };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}

/** One REST channel turn: the texts of the bot's answer. */
export async function restTurn(url: string, sender: string, message: string): Promise<string[]> {
  const response = await fetch(`${url}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sender, message }),
    signal: AbortSignal.timeout(20_000),
  });
  expect(response.status).to.equal(200);
  const messages = (await response.json()) as { text?: string }[];
  return messages.map((message) => message.text ?? '');
}
