/**
 * The Dockerfile cannot be built here (no image registry), so this checks what can be checked without
 * building it: every file it copies from the build context exists and is not left out by .dockerignore,
 * its CMD is `parley run` with options the CLI takes, and its HEALTHCHECK asks a route a real
 * `parley run` answers with 200.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProgram } from '../../src/cli/main.js';
import { startParley } from '../support/parley-process.js';
import { copyBundledAssistant } from '../support/bundled-assistant.js';

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

const DOCKERFILE = instructions(readFileSync('Dockerfile', 'utf8'));
const IGNORED = readFileSync('.dockerignore', 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

function only(keyword: string): Instruction {
  const found = DOCKERFILE.filter((instruction) => instruction.keyword === keyword);
  expect(found, `one ${keyword}`).to.have.length(1);
  return found[0] as Instruction;
}

/** `["node", "bin/parley.js", ...]` of an exec-form CMD or HEALTHCHECK */
function execForm(args: string): string[] {
  const start = args.indexOf('[');
  return JSON.parse(args.slice(start)) as string[];
}

describe('the Dockerfile (checked without building it)', function () {
  this.timeout(120_000);

  it('copies only files that exist in the build context and that .dockerignore keeps', () => {
    const sources = DOCKERFILE.filter(
      (instruction) => instruction.keyword === 'COPY' && !instruction.args.startsWith('--from'),
    ).flatMap((instruction) => instruction.args.split(/\s+/).slice(0, -1));
    expect(sources.length).to.be.greaterThan(10);
    for (const source of sources) {
      expect(existsSync(source), `${source} exists`).to.equal(true);
      const top = source.split('/')[0];
      expect(IGNORED, `${source} is not in .dockerignore`).to.not.include(top);
    }
    for (const heavy of ['node_modules', 'dist', 'models', '.parley', '.git'])
      expect(IGNORED, `.dockerignore leaves out ${heavy}`).to.include(heavy);
  });

  it('builds on node 20 slim in stages, runs as a non-root user and exposes 5005', () => {
    const froms = DOCKERFILE.filter((instruction) => instruction.keyword === 'FROM');
    expect(froms.length).to.be.at.least(2);
    const image = DOCKERFILE.find((instruction) => instruction.keyword === 'ARG')?.args;
    expect(image).to.equal('NODE_IMAGE=node:20-slim');
    expect(DOCKERFILE.some((step) => step.keyword === 'RUN' && /\bnpm ci\b/.test(step.args))).to.equal(true);
    const users = DOCKERFILE.filter((instruction) => instruction.keyword === 'USER');
    expect(users.at(-1)?.args).to.equal('node');
    expect(only('EXPOSE').args).to.equal('5005');
  });

  it("runs `parley run` with options the CLI's run command takes, on port 5005", () => {
    const command = execForm(only('CMD').args);
    expect(command.slice(0, 3)).to.deep.equal(['node', 'bin/parley.js', 'run']);
    const program = buildProgram({
      stdout: () => undefined,
      stderr: () => undefined,
      setExitCode: () => undefined,
      stderrIsTTY: false,
    });
    const run = program.commands.find((candidate) => candidate.name() === 'run');
    const known = new Set(run?.options.flatMap((option) => [option.long, option.short]));
    const flags = command.slice(3).filter((word) => word.startsWith('-'));
    for (const flag of flags) expect(known.has(flag), `parley run ${flag}`).to.equal(true);
    expect(command[command.indexOf('--port') + 1]).to.equal('5005');
  });

  describe('its HEALTHCHECK', () => {
    let folder: string;
    let server: { url: string; stop(): Promise<void> } | undefined;

    before(async () => {
      if (!existsSync(join('dist', 'cli', 'main.js')))
        throw new Error('dist/ is missing: run `npm run build`');
      folder = mkdtempSync(join(tmpdir(), 'parley-dockerfile-'));
      copyBundledAssistant(folder);
      server = await startParley(folder);
    });

    after(async () => {
      await server?.stop();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it('asks a route that a real `parley run` answers with 200', async () => {
      const probe = execForm(only('HEALTHCHECK').args).join(' ');
      const url = /fetch\('(http:\/\/127\.0\.0\.1:5005(\/[^']*))'\)/.exec(probe);
      expect(url, probe).to.not.equal(null);
      const answer = await fetch(new URL(url?.[2] ?? '', server?.url));
      expect(answer.status).to.equal(200);
    });
  });
});
