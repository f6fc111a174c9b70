import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { CliIo } from '../io.js';
import { requestedLogLevel } from '../common-options.js';
import type { LoggingFlags } from '../common-options.js';
import { createLogger } from '../logger.js';
import { toLocation } from '../project-options.js';
import type { ProjectFlags } from '../project-options.js';
import { openAssistant } from './open-assistant.js';
import { STOP_COMMAND, ShellSession } from './session.js';

export interface ShellFlags extends ProjectFlags, LoggingFlags {
  readonly model?: string;
  readonly conversationId?: string;
  readonly rasaVersion?: string;
}

/** Rasa's shell prompt, shown only when the input is a terminal. */
const PROMPT = 'Your input -> ';

/** Opens the assistant and talks to it until the input ends; the exit code (1: it could not start). */
export async function runShell(io: CliIo, flags: ShellFlags): Promise<number> {
  if (/^\d+$/.test(flags.project) && !existsSync(flags.project)) {
    io.stderr(
      `parley shell: there is no assistant folder '${flags.project}'. Here -p is --project: the shell ` +
        'runs in the terminal and serves no port (in Rasa, `rasa shell -p` is the port of its server).\n',
    );
    return 2;
  }
  const level = requestedLogLevel(flags);
  const logger = createLogger(level ? { level } : {});
  const opened = await openAssistant(io, {
    location: toLocation(flags),
    projectRoot: resolve(flags.project),
    model: flags.model !== undefined ? { path: flags.model } : {},
    logger,
    ...(flags.rasaVersion ? { rasaVersion: flags.rasaVersion } : {}),
  });
  if (!opened) return 1;
  // Rasa's console channel uses a uuid4 hex as the sender id
  const conversationId = flags.conversationId ?? randomUUID().replace(/-/g, '');
  const session = new ShellSession({ agent: opened.agent, conversationId, write: io.stdout });
  try {
    const stored = flags.conversationId !== undefined ? await session.resume() : 0;
    const which =
      stored > 0
        ? `Continuing conversation ${conversationId} (${stored} events)`
        : `Conversation id ${conversationId}`;
    io.stdout(`Bot loaded. ${which}. Type a message and press enter (use '${STOP_COMMAND}' to exit).\n`);
    await readLines(io, session);
  } finally {
    await opened.close();
  }
  return 0;
}

/** Sends each line in turn (lines typed during a turn wait for it), until end of input or /stop. */
async function readLines(io: CliIo, session: ShellSession): Promise<void> {
  const input = io.stdin ?? process.stdin;
  const interactive = (input as { isTTY?: boolean }).isTTY === true;
  const lines = createInterface({
    input,
    ...(interactive ? { output: process.stdout, prompt: PROMPT, terminal: true } : { terminal: false }),
  });
  try {
    if (interactive) lines.prompt();
    for await (const line of lines) {
      if (line.trim() === STOP_COMMAND) break;
      if (line.trim() !== '') await sendOne(io, session, line);
      if (interactive) lines.prompt();
    }
  } finally {
    lines.close();
  }
}

/** A turn that fails (a store is down) is reported and the shell goes on. */
async function sendOne(io: CliIo, session: ShellSession, line: string): Promise<void> {
  try {
    await session.send(line);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    io.stderr(`parley shell: the message could not be processed: ${reason}\n`);
  }
}
