import type { Assistant } from '../core/assistant.js';
import type { CommandGenerator } from '../core/ports.js';
import type { Logger } from '../runtime/logger.js';
import { withRoutingToCalm } from '../understanding/coexistence/routing-marker.js';
import { createHybridGenerator, pipelineShape } from '../understanding/coexistence/setup.js';
import { PayloadCommandGenerator } from '../understanding/direct-payloads.js';
import { resolveLlmConfig } from '../understanding/llm/config.js';
import type { Environment } from '../understanding/llm/config.js';
import { createLlmCommandGenerator } from '../understanding/llm/llm-command-generator.js';
import { NluCommandGenerator } from '../understanding/nlu/nlu-command-generator.js';
import { nluInterpreter, trainNlu } from '../understanding/nlu/pipeline.js';
import type { TrainedNlu } from '../understanding/nlu/pipeline.js';

export type UnderstandingChoice =
  | {
      readonly ok: true;
      readonly generator: CommandGenerator;
      readonly kind: 'llm' | 'nlu' | 'hybrid' | 'payloads';
    }
  | { readonly ok: false; readonly message: string };

/**
 * Picks the assistant's understanding: the LLM command generator its config.yml names (configured
 * through model_groups); NLU and that generator together, behind a coexistence router if one is named
 * (`hybrid`, coexistence/); or else Parley's offline NLU pipeline. `llmOptional` (e2e runs with a command
 * oracle) falls back to payload-only understanding when the LLM is named but not configured. `env` is
 * where `${VAR}` references and the OPENAI_* variables are read (default: the process environment).
 */
export function chooseUnderstanding(
  assistant: Assistant,
  options: {
    logger: Logger;
    llmOptional?: boolean;
    trained?: TrainedNlu;
    today?: () => Date;
    env?: Environment;
  },
): UnderstandingChoice {
  const llm = resolveLlmConfig(assistant, options.env);
  if (!llm.ok) {
    if (!options.llmOptional) return { ok: false, message: llm.error.message };
    options.logger.warn(
      { reason: llm.error.message },
      'LLM not configured: only direct payloads are understood',
    );
    // a payload that starts a flow routes the session to CALM, as Rasa's NLU command adapter does
    return { ok: true, generator: withRoutingToCalm(new PayloadCommandGenerator(), 'nlu'), kind: 'payloads' };
  }
  if (pipelineShape(assistant.config.pipeline) === 'hybrid') {
    const trained = options.trained ?? trainNlu(assistant, { projectDataOnly: true });
    const interpreter = nluInterpreter(trained, options.today ?? (() => new Date()));
    const generator = llm.config
      ? createLlmCommandGenerator(llm.config, { logger: options.logger })
      : undefined;
    const hybrid = createHybridGenerator(assistant, {
      interpreter,
      llm: generator,
      logger: options.logger,
      ...(options.env ? { env: options.env } : {}),
    });
    return hybrid.ok ? { ok: true, generator: hybrid.generator, kind: 'hybrid' } : hybrid;
  }
  if (llm.config)
    return {
      ok: true,
      generator: withRoutingToCalm(createLlmCommandGenerator(llm.config, { logger: options.logger }), 'llm'),
      kind: 'llm',
    };
  const trained = options.trained ?? trainNlu(assistant);
  const interpreter = nluInterpreter(trained, options.today ?? (() => new Date()));
  return {
    ok: true,
    generator: withRoutingToCalm(new NluCommandGenerator({ interpreter }), 'nlu'),
    kind: 'nlu',
  };
}
