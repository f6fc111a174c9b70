/**
 * The primary process of `parley run --workers N`: refuses a setup whose workers would not share
 * their state (listing every reason), trains the model once so that the workers only load it, then
 * supervises the workers (workers.ts) until a signal stops them.
 */
import { AppError } from '../core/errors.js';
import { validateProject } from '../project/validate/index.js';
import type { Logger } from '../runtime/logger.js';
import { formatDiagnosticsText } from './format-diagnostics.js';
import type { CliIo } from './io.js';
import { loadOrTrainModel } from './model-source.js';
import { toLocation } from './project-options.js';
import type { ProjectFlags } from './project-options.js';
import { runWorkerPool, workerProblems } from './workers.js';

export interface PrimaryOptions {
  readonly flags: ProjectFlags & { readonly model?: string; readonly rasaVersion?: string };
  readonly workers: number;
  readonly host: string;
  readonly tls: boolean;
  readonly logger: Logger;
  readonly signals: NodeJS.EventEmitter;
  /** logs a failed start (start-up-failure.ts) and gives the exit code */
  readonly failed: (error: unknown) => number;
}

export async function runPrimary(io: CliIo, options: PrimaryOptions): Promise<number> {
  const { flags, workers, logger } = options;
  const { project, diagnostics, hasErrors } = validateProject(toLocation(flags), {
    ...(flags.rasaVersion ? { rasaVersion: flags.rasaVersion } : {}),
  });
  if (hasErrors) {
    const message = `The assistant has errors:\n${formatDiagnosticsText(diagnostics)}`;
    return options.failed(new AppError({ code: 'PROJECT_INVALID', message, details: { diagnostics } }));
  }
  const problems = workerProblems(project.assistant.endpoints);
  if (problems.length > 0) {
    const lines = problems.map((problem) => `  - ${problem}`).join('\n');
    io.stderr(`parley run: --workers ${workers} needs state every worker shares:\n${lines}\n`);
    return 2;
  }
  try {
    loadOrTrainModel({ project, logger, train: true, ...(flags.model ? { modelPath: flags.model } : {}) });
  } catch (error) {
    return options.failed(error);
  }
  const code = await runWorkerPool({
    count: workers,
    logger,
    signals: options.signals,
    onListening: ({ port }) => {
      const host = options.host === '0.0.0.0' ? 'localhost' : options.host;
      const url = `${options.tls ? 'https' : 'http'}://${host}:${port}`;
      io.stdout(`Parley server is up and running at ${url} (${workers} workers).\n`);
    },
  });
  io.stdout('Parley server stopped.\n');
  return code;
}
