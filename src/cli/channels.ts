import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUILT_IN_CHANNELS, RASA_CHANNELS_NOT_SHIPPED } from '../channels/built-ins.js';
import type { ChannelFactory, InputChannel } from '../channels/channel.js';
import { AppError } from '../core/errors.js';
import type { Logger } from '../runtime/logger.js';
import { importUserModule } from '../user-modules.js';

export interface ChannelSelection {
  /** credentials.yml as loaded (undefined when the project has none) */
  readonly credentials: Readonly<Record<string, unknown>> | undefined;
  /** Rasa's `--connector`: only this channel */
  readonly connector?: string;
  readonly projectRoot: string;
  readonly logger: Logger;
}

/**
 * The channels to serve, the way `rasa run` picks them: every credentials.yml entry (built-in names or
 * a module path to a custom channel), only `--connector` when given, and the REST channel with a
 * warning when nothing is configured. A channel Parley does not have (one of Rasa's it does not ship,
 * a module path that names no module) is skipped with one warning, as a project brought from Rasa
 * must still run; one it has but cannot start (bad settings, a module that fails) stops the start,
 * every such entry reported at once. `--connector` naming a channel Parley does not have is an error.
 */
export async function selectChannels(selection: ChannelSelection): Promise<InputChannel[]> {
  const entries = Object.entries(selection.credentials ?? {});
  const chosen = selection.connector
    ? [[selection.connector, (selection.credentials ?? {})[selection.connector] ?? null] as const]
    : entries;
  const problems: string[] = [];
  const channels: InputChannel[] = [];
  for (const [name, block] of chosen) {
    try {
      const found = await factoryFor(name, selection.projectRoot);
      if (found.kind === 'factory')
        channels.push(found.factory.create(recordOf(block), { logger: selection.logger }));
      else if (selection.connector) problems.push(`${name}: ${found.reason}`);
      else skipped(selection.logger, name, found.reason);
    } catch (error) {
      problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (problems.length > 0)
    throw new AppError({
      code: 'PROJECT_INVALID',
      message: `credentials.yml: ${problems.length} channel(s) cannot start:\n  ${problems.join('\n  ')}`,
    });
  if (channels.length === 0) {
    selection.logger.warn({}, 'No chat connector configured, falling back to the REST input channel.');
    return [BUILT_IN_CHANNELS.get('rest')!.create({}, { logger: selection.logger })];
  }
  return channels;
}

// a plain name that is no channel at all is a typo validate warns about (CREDENTIALS_UNKNOWN_CHANNEL,
// repeated at start-up): the skip itself is then only news at info level
function skipped(logger: Logger, name: string, reason: string): void {
  const typo = !name.includes('.') && !RASA_CHANNELS_NOT_SHIPPED.has(name);
  const message = `credentials.yml: '${name}' is skipped: ${reason}`;
  if (typo) logger.info({ channel: name }, message);
  else logger.warn({ channel: name }, message);
}

type FoundChannel =
  | { readonly kind: 'factory'; readonly factory: ChannelFactory }
  | { readonly kind: 'absent'; readonly reason: string };

async function factoryFor(name: string, projectRoot: string): Promise<FoundChannel> {
  const builtIn = BUILT_IN_CHANNELS.get(name);
  if (builtIn) return { kind: 'factory', factory: builtIn };
  if (RASA_CHANNELS_NOT_SHIPPED.has(name))
    return {
      kind: 'absent',
      reason: `Parley does not ship Rasa's '${name}' channel; write it as a custom channel (docs/channels.md).`,
    };
  const path = modulePath(name, projectRoot);
  if (!path)
    return {
      kind: 'absent',
      reason:
        `Failed to find input channel class for '${name}': no built-in channel of that name and no module ` +
        `${name.replace(/\./g, '/')}.(ts|js) in the project.`,
    };
  const module = await importUserModule(path);
  const exportName = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '';
  const candidate = module[exportName] ?? module['default'];
  if (!isFactory(candidate))
    throw new Error(
      `${path} must export a channel factory (defineChannel({name, create})) as default or '${exportName}'.`,
    );
  return { kind: 'factory', factory: candidate };
}

/**
 * A module path like Rasa's (`addons.my_channel.MyInput`: the module addons/my_channel, export MyInput),
 * or a file path relative to the project.
 */
function modulePath(name: string, projectRoot: string): string | undefined {
  const asFile = resolve(projectRoot, name);
  if (/\.(m?ts|m?js)$/.test(name) && existsSync(asFile)) return asFile;
  const segments = name.split('.');
  for (const count of [segments.length - 1, segments.length]) {
    if (count < 1) continue;
    const base = join(projectRoot, ...segments.slice(0, count));
    for (const extension of ['.ts', '.mts', '.js', '.mjs'])
      if (existsSync(base + extension)) return base + extension;
  }
  return undefined;
}

function isFactory(value: unknown): value is ChannelFactory {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ChannelFactory).name === 'string' &&
    typeof (value as ChannelFactory).create === 'function'
  );
}

function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
