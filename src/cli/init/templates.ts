import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assetUrl } from '../../asset-paths.js';

export const TEMPLATE_NAMES = ['default', 'banking'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** One file a template writes: its path in the new project (`/`-separated) and where it is read from. */
export interface TemplateFile {
  readonly target: string;
  readonly source: string;
}

interface TemplateManifest {
  /** top-level files and folders of the template root that are copied */
  readonly entries: readonly string[];
  /** files under those entries that are not */
  readonly leaveOut: readonly string[];
}

/**
 * Files npm leaves out of a package (`.gitignore`) are shipped under another name and written under
 * their real one.
 */
const RENAMED: Readonly<Record<string, string>> = { _gitignore: '.gitignore' };

/** Output of earlier `parley test e2e -o` runs in a source checkout; never part of a template. */
const GENERATED = /(^|\/)e2e_results_[^/]*\.yml$/;

/** The files of a template, sorted by target path. */
export function templateFiles(name: TemplateName): TemplateFile[] {
  const { root, manifest } = locateTemplate(name);
  const files: TemplateFile[] = [];
  for (const entry of manifest.entries) collect(root, entry, files);
  // every template gets the same .gitignore (models, the SQLite store, node_modules)
  files.push({ target: '_gitignore', source: fileURLToPath(assetUrl('templates/_gitignore')) });
  return files
    .filter((file) => !manifest.leaveOut.includes(file.target) && !GENERATED.test(file.target))
    .map((file) => ({ ...file, target: renamed(file.target) }))
    .sort((a, b) => a.target.localeCompare(b.target));
}

function locateTemplate(name: TemplateName): { root: string; manifest: TemplateManifest } {
  const root = fileURLToPath(assetUrl(`templates/${name}/`));
  if (name === 'default') return { root, manifest: { entries: readdirSync(root), leaveOut: [] } };
  const manifest = readManifest(fileURLToPath(assetUrl('templates/banking.json')));
  // Built: dist/templates/banking/ (scripts/copy-assets.js). From source: the bundled assistant itself.
  return { root: existsSync(root) ? root : fileURLToPath(assetUrl('../')), manifest };
}

function readManifest(path: string): TemplateManifest {
  const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<TemplateManifest>;
  return { entries: data.entries ?? [], leaveOut: data.leaveOut ?? [] };
}

function collect(root: string, relative: string, into: TemplateFile[]): void {
  const source = join(root, relative);
  if (!existsSync(source)) throw new Error(`The template is incomplete: ${source} is missing.`);
  if (!statSync(source).isDirectory()) {
    into.push({ target: relative, source });
    return;
  }
  for (const child of readdirSync(source)) collect(root, `${relative}/${child}`, into);
}

function renamed(target: string): string {
  const parts = target.split('/');
  const last = parts.pop() ?? '';
  return [...parts, RENAMED[last] ?? last].join('/');
}
