import type { Command } from 'commander';
import type { ProjectLocation } from '../project/load/discover.js';

/** Rasa's flags for finding an assistant, shared by every command that loads one. */
export function addProjectOptions(command: Command): Command {
  return command
    .option('-p, --project <dir>', 'the assistant folder', '.')
    .option('-d, --domain <path>', 'domain file or folder (default: domain.yml and domain/ in the project)')
    .option('--data <paths...>', 'training data files or folders (default: data/ and flows/ in the project)')
    .option('-c, --config <path>', 'config file (default: config.yml in the project)')
    .option('--endpoints <path>', 'endpoints file (default: endpoints.yml in the project)')
    .option('--credentials <path>', 'credentials file (default: credentials.yml in the project)');
}

export interface ProjectFlags {
  readonly project: string;
  readonly domain?: string;
  readonly data?: string[];
  readonly config?: string;
  readonly endpoints?: string;
  readonly credentials?: string;
}

export function toLocation(flags: ProjectFlags): ProjectLocation {
  return {
    project: flags.project,
    ...(flags.domain ? { domain: flags.domain } : {}),
    ...(flags.data ? { data: flags.data } : {}),
    ...(flags.config ? { config: flags.config } : {}),
    ...(flags.endpoints ? { endpoints: flags.endpoints } : {}),
    ...(flags.credentials ? { credentials: flags.credentials } : {}),
  };
}
