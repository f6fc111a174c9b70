// Replays the e2e tests of the four corpus projects with their command oracles and our stub actions,
// and ends with one line per project: `PROJECT: N passed, M failed`.
import { resolve } from 'node:path';
import { executeTestE2E } from '../src/cli/run-test-e2e.js';
import { SILENT_LOGGER } from '../src/runtime/logger.js';
import { CORPUS_PROJECTS, corpusPath } from '../test/corpus/projects.js';

let failedTotal = 0;
const summary: string[] = [];
const quietIo = {
  stdout: (text: string) => void (process.env['CORPUS_VERBOSE'] ? process.stdout.write(text) : undefined),
  stderr: (text: string) => void process.stderr.write(text),
  setExitCode: () => undefined,
};
for (const project of CORPUS_PROJECTS) {
  const root = corpusPath(project.name);
  const outcome = await executeTestE2E(quietIo, {
    location: { project: root },
    projectRoot: resolve(root),
    paths: [],
    oracle: corpusPath(`oracles/${project.name}.commands.yml`),
    actions: `test/corpus/actions/${project.name}.ts`,
    ...(project.rasaVersion ? { rasaVersion: project.rasaVersion } : {}),
    failFast: false,
    deterministicOnly: true,
    quiet: true,
    logger: SILENT_LOGGER,
  });
  const passed = outcome.results.filter((result) => result.passed);
  const failed = outcome.results.filter((result) => !result.passed);
  failedTotal += failed.length;
  for (const result of failed)
    console.log(`FAILED ${project.name}: ${result.file.path}::${result.testCase.name}`);
  summary.push(`${project.name}: ${passed.length} passed, ${failed.length} failed`);
}
for (const line of summary) console.log(line);
process.exitCode = failedTotal > 0 ? 1 : 0;
