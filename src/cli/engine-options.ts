import type { Assistant } from '../core/assistant.js';
import type { EngineOptions } from '../core/engine-context.js';
import { compareVersions } from '../project/defaults.js';

/** Engine behaviours that follow from the assistant's configuration. */
export function engineOptionsFor(assistant: Assistant): Partial<EngineOptions> {
  const version = assistant.config.rasaVersion;
  return {
    resumeInterruptedFlowsAtOnce: version !== undefined && compareVersions(version, '3.13') <= 0,
    hasIntentlessPolicy: assistant.config.policies.some((policy) => policy.name === 'IntentlessPolicy'),
  };
}
