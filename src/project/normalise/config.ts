import type { AssistantConfig, ComponentConfig } from '../../core/assistant.js';
import { asString, isRecord } from './context.js';

export function buildConfig(raw: Record<string, unknown>, rasaVersion?: string): AssistantConfig {
  const parley = isRecord(raw['parley']) ? raw['parley'] : {};
  const configured = parley['rasa_version'];
  const version =
    rasaVersion ??
    (typeof configured === 'string' || typeof configured === 'number' ? String(configured) : undefined);
  return {
    rasaVersion: version,
    recipe: asString(raw['recipe']) ?? 'default.v1',
    language: asString(raw['language']) ?? 'en',
    assistantId: asString(raw['assistant_id']),
    pipeline: components(raw['pipeline']),
    policies: components(raw['policies']),
    raw,
  };
}

function components(raw: unknown): ComponentConfig[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).map(({ name, ...options }) => ({ name: String(name), options }));
}
