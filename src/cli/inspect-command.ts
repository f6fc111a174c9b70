import { spawn } from 'node:child_process';
import { Command } from 'commander';
import type { CliIo } from './io.js';
import { addLoggingOptions } from './common-options.js';
import { runServer, serverOptions } from './run-command.js';
import type { RunFlags } from './run-command.js';

interface InspectFlags extends RunFlags {
  /** commander's `--no-browser` */
  readonly browser: boolean;
}

/**
 * `parley inspect` (Rasa's `rasa inspect`): serves the assistant as `parley run --enable-api` does, in
 * one process (the page's traces live in it), prints the inspector's URL and opens it in a browser
 * when a display is available.
 */
export function inspectCommand(io: CliIo, signals: NodeJS.EventEmitter = process): Command {
  const command = serverOptions(
    new Command('inspect').description('serve the assistant with the inspector page at /inspect'),
  ).option('--no-browser', 'only print the page URL, do not open a browser');
  return addLoggingOptions(command).action(async (flags: InspectFlags) => {
    const served: RunFlags = { ...flags, enableApi: true, workers: '1' };
    const code = await runServer(io, served, signals, (baseUrl) => {
      const url = inspectorUrl(baseUrl, flags.authToken);
      io.stdout(`Inspector: ${url}\n`);
      if (flags.browser && hasDisplay()) openBrowser(url);
    });
    io.setExitCode(code);
  });
}

/** The page URL; with a token, the token the page passes on to its API calls. */
export function inspectorUrl(baseUrl: string, token: string | undefined): string {
  // a server listening on every interface is reached locally
  const local = baseUrl.replace('://0.0.0.0:', '://localhost:').replace('://[::]:', '://localhost:');
  return `${local}/inspect${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

function hasDisplay(): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY']);
}

/** Best effort: a missing opener only means the URL has to be opened by hand. */
function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no opener: the URL is printed above
  }
}
