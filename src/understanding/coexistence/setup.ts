/**
 * Builds the hybrid understanding from config.yml: which pipeline shape the project has, its router and
 * the options of the LLM generator that matter for coexistence.
 */
import type { Assistant, ComponentConfig } from '../../core/assistant.js';
import type { CommandGenerator } from '../../core/ports.js';
import { LLM_GENERATORS, resolveComponentLlm } from '../llm/config.js';
import type { Environment } from '../llm/config.js';
import type { LlmLogger } from '../llm/llm-command-generator.js';
import { OpenAiClient } from '../llm/openai-client.js';
import type { NluInterpreter } from '../nlu/nlu-command-generator.js';
import { HybridCommandGenerator } from './hybrid-command-generator.js';
import { IntentBasedRouter } from './intent-based-router.js';
import { LlmBasedRouter } from './llm-based-router.js';
import type { CoexistenceRouter } from './router.js';
import { intentEntries, llmEntries, ROUTER_NAMES } from './router.js';

/**
 * `hybrid`: a router, or NLUCommandAdapter next to an LLM command generator (Rasa's coexistence);
 * `llm`: an LLM command generator alone; `nlu`: Parley's offline NLU understanding.
 */
export type PipelineShape = 'nlu' | 'llm' | 'hybrid';

export function pipelineShape(pipeline: readonly ComponentConfig[]): PipelineShape {
  const has = (test: (name: string) => boolean): boolean => pipeline.some((c) => test(c.name));
  const llm = has((name) => name in LLM_GENERATORS || name === 'MultiStepLLMCommandGenerator');
  const adapter = has((name) => name === 'NLUCommandAdapter');
  if (routerComponent(pipeline) || (adapter && llm)) return 'hybrid';
  return llm ? 'llm' : 'nlu';
}

export function routerComponent(pipeline: readonly ComponentConfig[]): ComponentConfig | undefined {
  return pipeline.find((component) => (ROUTER_NAMES as readonly string[]).includes(component.name));
}

export interface HybridSetup {
  readonly interpreter: NluInterpreter;
  readonly llm: CommandGenerator | undefined;
  readonly env?: Environment;
  readonly logger?: LlmLogger;
  readonly fetch?: typeof fetch;
}

export type HybridResult =
  | { readonly ok: true; readonly generator: HybridCommandGenerator }
  | { readonly ok: false; readonly message: string };

export function createHybridGenerator(assistant: Assistant, setup: HybridSetup): HybridResult {
  const pipeline = assistant.config.pipeline;
  const router = createRouter(assistant, setup);
  if (!router.ok) return router;
  const generator = pipeline.find((component) => component.name in LLM_GENERATORS);
  return {
    ok: true,
    generator: new HybridCommandGenerator({
      interpreter: setup.interpreter,
      ...(setup.llm ? { llm: setup.llm } : {}),
      ...(router.router ? { router: router.router } : {}),
      nluAdapter: pipeline.some((component) => component.name === 'NLUCommandAdapter'),
      minimizeNumCalls: generator?.options['minimize_num_calls'] !== false,
    }),
  };
}

function createRouter(
  assistant: Assistant,
  setup: HybridSetup,
): { ok: true; router: CoexistenceRouter | undefined } | { ok: false; message: string } {
  const component = routerComponent(assistant.config.pipeline);
  if (!component) return { ok: true, router: undefined };
  if (component.name === 'IntentBasedRouter') {
    const entries = intentEntries(component.options);
    return entries.ok
      ? { ok: true, router: new IntentBasedRouter(entries.entries) }
      : { ok: false, message: entries.problems.join(' ') };
  }
  const entries = llmEntries(component.options);
  if (!entries.ok) return { ok: false, message: entries.problems.join(' ') };
  const client = resolveComponentLlm(component, assistant.endpoints, setup.env);
  if (!client.ok) return { ok: false, message: `LLMBasedRouter: ${client.error.message}` };
  for (const warning of client.warnings) setup.logger?.warn({ component: component.name }, warning);
  if (component.options['prompt'] !== undefined)
    setup.logger?.warn(
      { component: component.name },
      'LLMBasedRouter: prompt is ignored; Parley uses its own.',
    );
  const extraBody = { max_tokens: 1, ...client.client.extraBody };
  const openAi = new OpenAiClient({
    ...client.client,
    extraBody,
    ...(setup.fetch ? { fetch: setup.fetch } : {}),
  });
  return {
    ok: true,
    router: new LlmBasedRouter({
      entries: entries.entries,
      client: openAi,
      ...(setup.logger ? { logger: setup.logger } : {}),
    }),
  };
}
