/**
 * Which card this server serves: generated from the flows, or the static file of `agent_card_path`.
 * The content is settled before the server listens (a broken static card stops the start); the
 * endpoint is added once the listen address, and so the inferred URL, is known.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Assistant } from '../../core/assistant.js';
import { AppError } from '../../core/errors.js';
import type { A2aServerConfig } from '../config.js';
import { combinedCard, v1Card } from './card-shapes.js';
import { bearerSecurity, capabilities, generatedCardContent } from './generated-card.js';
import { staticCardContent } from './static-card.js';
import type { CardContent, ServedCards } from './types.js';

export interface CardContentOptions {
  readonly config: A2aServerConfig;
  readonly assistant: Assistant;
  /** `agent_card_path` is relative to it */
  readonly projectRoot: string;
  /** the card's version when the config names none */
  readonly fallbackVersion: string;
}

export interface ChosenCard {
  readonly content: CardContent;
  readonly origin: 'generated' | 'static';
  /** things worth a warning in the start-up log */
  readonly warnings: readonly string[];
}

export function chooseCardContent(options: CardContentOptions): ChosenCard {
  const { config } = options;
  if (config.agentCardPath === undefined)
    return { content: generatedCardContent(options), origin: 'generated', warnings: [] };
  const path = resolve(options.projectRoot, config.agentCardPath);
  const result = staticCardContent(readJson(path), capabilities(config));
  if (!result.content) {
    const lines = result.problems.map((problem) => `  - ${problem.message} (${problem.code})`);
    throw new AppError({
      code: 'A2A_CONFIG_INVALID',
      message: `The AgentCard ${path} (a2a_server.agent_card_path) cannot be served:\n${lines.join('\n')}`,
      details: { problems: result.problems },
    });
  }
  const warnings = result.warnings.map((warning) => `AgentCard ${path}: ${warning}`);
  // callers must learn that they need a token, even when the hand-written card forgot to say so
  const content =
    config.auth && result.content.securitySchemes === undefined
      ? { ...result.content, ...bearerSecurity() }
      : result.content;
  return { content, origin: 'static', warnings };
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return failure(path, `cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return failure(path, `is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function failure(path: string, message: string): never {
  throw new AppError({
    code: 'A2A_CONFIG_INVALID',
    message: `The AgentCard ${path} (a2a_server.agent_card_path) ${message} (A2A_AGENT_CARD_INVALID)`,
    details: {
      problems: [{ code: 'A2A_AGENT_CARD_INVALID', key: 'a2a_server.agent_card_path', message }],
    },
  });
}

/** Both shapes of the card, pointing at the JSON-RPC endpoint. */
export function servedCards(content: CardContent, endpointUrl: string): ServedCards {
  return { v1: v1Card(content, endpointUrl), combined: combinedCard(content, endpointUrl) };
}
