/**
 * The AgentCard generated from the assistant: its flows as skills, the description from endpoints.yml,
 * capabilities of this server, and the bearer scheme when calling agents must authenticate.
 */
import type { Assistant } from '../../core/assistant.js';
import type { A2aServerConfig } from '../config.js';
import { skillsFromFlows } from './skills.js';
import type { CardContent, V03SecurityRequirement, V03SecurityScheme, V03Skill } from './types.js';

/** text turns in and bot messages out; JSON for DataPart slot pre-filling and the structured state */
export const DEFAULT_MODES: readonly string[] = ['text/plain', 'application/json'];

export const BEARER_SCHEME_NAME = 'bearer';

export const FALLBACK_NAME = 'Parley Assistant';

export interface GeneratedCardOptions {
  readonly config: A2aServerConfig;
  readonly assistant: Assistant;
  /** the card's version when the config names none (Parley's version) */
  readonly fallbackVersion: string;
}

export function generatedCardContent(options: GeneratedCardOptions): CardContent {
  const { config, assistant } = options;
  const name = config.name ?? assistant.config.assistantId ?? FALLBACK_NAME;
  const skills = skillsFromFlows(assistant, { includeConversationRepair: config.includeConversationRepair });
  return {
    name,
    description: config.description,
    version: config.version ?? options.fallbackVersion,
    capabilities: capabilities(config),
    ...(config.auth ? bearerSecurity() : {}),
    defaultInputModes: DEFAULT_MODES,
    defaultOutputModes: DEFAULT_MODES,
    // a v1.0 card needs at least one skill: an assistant with no exposable flow is still an assistant
    skills: skills.length > 0 ? skills : [placeholderSkill(name, config.description)],
  };
}

/** What this server does, whatever a static card says. */
export function capabilities(config: A2aServerConfig): CardContent['capabilities'] {
  return {
    streaming: true,
    pushNotifications: config.pushNotificationsEnabled,
    stateTransitionHistory: false,
  };
}

export function bearerSecurity(): {
  securitySchemes: Record<string, V03SecurityScheme>;
  security: V03SecurityRequirement[];
} {
  return {
    securitySchemes: {
      [BEARER_SCHEME_NAME]: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'A JWT identifying the calling agent (not the end user).',
      },
    },
    security: [{ [BEARER_SCHEME_NAME]: [] }],
  };
}

function placeholderSkill(name: string, description: string): V03Skill {
  return { id: 'assistant', name, description, tags: ['assistant'] };
}
