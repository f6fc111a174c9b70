/** Small assistants written inline in a test, as a project folder on disk (for servers and the CLI). */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dedent } from './inline-assistant.js';

export interface InlineProjectFiles {
  readonly domain: string;
  readonly flows: string;
  readonly config?: string;
  readonly endpoints?: string;
  readonly credentials?: string;
  readonly nlu?: string;
  /** extra files: relative path → content (e.g. custom channel modules) */
  readonly files?: Readonly<Record<string, string>>;
}

const DEFAULT_CONFIG = 'recipe: default.v1\nlanguage: en\nassistant_id: inline-test\n';

/** Writes the project into a fresh temporary folder and returns the folder. */
export function writeInlineProject(project: InlineProjectFiles): string {
  const root = mkdtempSync(join(tmpdir(), 'parley-project-'));
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'domain.yml'), dedent(project.domain));
  writeFileSync(join(root, 'data', 'flows.yml'), dedent(project.flows));
  writeFileSync(join(root, 'config.yml'), project.config ? dedent(project.config) : DEFAULT_CONFIG);
  if (project.endpoints) writeFileSync(join(root, 'endpoints.yml'), dedent(project.endpoints));
  if (project.credentials) writeFileSync(join(root, 'credentials.yml'), dedent(project.credentials));
  if (project.nlu) writeFileSync(join(root, 'data', 'nlu.yml'), dedent(project.nlu));
  for (const [path, content] of Object.entries(project.files ?? {})) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}
