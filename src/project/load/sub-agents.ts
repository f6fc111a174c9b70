/**
 * Reads the external sub-agents of a project as Rasa does: every folder under `sub_agents/` holding a
 * `config.yml` is one agent, keyed by `agent.name` (not the folder's name). Parley runs A2A agents;
 * Rasa's ReAct agents (`protocol: rasa`, the default of newer Rasa) need its LLM agent loop, which Parley
 * does not have, and are refused with a diagnostic. Every problem of every file is reported at once.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { DEFAULT_AGENT_MAX_RETRIES, DEFAULT_AGENT_TIMEOUT_SECONDS } from '../../core/agents/sub-agent.js';
import type { AgentCardSource, SubAgentAuth, SubAgentConfig } from '../../core/agents/sub-agent.js';
import type { DiagnosticCode } from '../../core/diagnostic-codes.js';
import type { ProjectDiagnostics } from '../diagnostics.js';
import { lazyPositionOf, parseYamlFile } from './yaml-file.js';
import type { PathSegment, YamlFile } from './yaml-file.js';

export const SUB_AGENTS_FOLDER = 'sub_agents';

const KEYS = {
  agent: new Set(['name', 'protocol', 'description']),
  configuration: new Set([
    'agent_card',
    'auth',
    'timeout',
    'max_retries',
    'module',
    'result_slots',
    'llm',
    'prompt_template',
    'include_date_time',
    'timezone',
  ]),
  connections: new Set(['mcp_servers']),
} as const;

export function readSubAgents(root: string, diagnostics: ProjectDiagnostics): Map<string, SubAgentConfig> {
  const agents = new Map<string, SubAgentConfig>();
  const folder = join(root, SUB_AGENTS_FOLDER);
  if (!isFolder(folder)) return agents;
  for (const entry of readdirSync(folder).sort()) {
    const path = join(folder, entry, 'config.yml');
    if (!isFolder(join(folder, entry)) || !existsSync(path)) continue;
    const agent = readAgent(root, path, diagnostics);
    if (!agent) continue;
    if (agents.has(agent.name)) {
      report(
        diagnostics,
        'SUB_AGENT_NAME_CONFLICT',
        undefined,
        path,
        `Two sub-agents are named '${agent.name}'.`,
      );
      continue;
    }
    agents.set(agent.name, agent);
  }
  return agents;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

class AgentReading {
  problems = 0;
  constructor(
    readonly file: YamlFile,
    readonly diagnostics: ProjectDiagnostics,
  ) {}

  problem(
    path: readonly PathSegment[],
    message: string,
    code: DiagnosticCode = 'SUB_AGENT_CONFIG_INVALID',
  ): void {
    this.problems += 1;
    report(this.diagnostics, code, this.file, this.file.path, message, path);
  }
}

function readAgent(root: string, path: string, diagnostics: ProjectDiagnostics): SubAgentConfig | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    diagnostics.add({ code: 'FILE_UNREADABLE', file: path, line: 1, column: 1, message: String(error) });
    return undefined;
  }
  const file = parseYamlFile(path, text, diagnostics);
  if (!file) return undefined;
  const reading = new AgentReading(file, diagnostics);
  const data = record(file.data);
  const agent = section(reading, data, 'agent', true);
  const configuration = section(reading, data, 'configuration', false);
  section(reading, data, 'connections', false);
  const name = text_(reading, agent, ['agent', 'name']);
  const description = text_(reading, agent, ['agent', 'description']);
  checkProtocol(reading, agent['protocol']);
  const agentCard = cardOf(reading, root, configuration['agent_card']);
  const auth = authOf(reading, configuration['auth']);
  const timeoutSeconds = positive(reading, configuration, 'timeout', DEFAULT_AGENT_TIMEOUT_SECONDS);
  const maxRetries = positive(reading, configuration, 'max_retries', DEFAULT_AGENT_MAX_RETRIES);
  const resultSlots = slotList(reading, configuration['result_slots']);
  if (configuration['module'] !== undefined)
    reading.problem(
      ['configuration', 'module'],
      'A custom agent module (Python) cannot run in Parley; use `result_slots` to take slots from the results.',
    );
  if (reading.problems > 0 || !name || !description || !agentCard) return undefined;
  return {
    name,
    description,
    protocol: 'a2a',
    agentCard,
    auth,
    timeoutSeconds,
    maxRetries,
    resultSlots,
    file: path,
  };
}

function section(
  reading: AgentReading,
  data: Record<string, unknown>,
  key: keyof typeof KEYS,
  required: boolean,
): Record<string, unknown> {
  const value = data[key];
  if (value === undefined || value === null) {
    if (required)
      reading.problem([], `The sub-agent config needs an '${key}' section (name, protocol, description).`);
    return {};
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    reading.problem([key], `'${key}' must be a map.`);
    return {};
  }
  for (const inner of Object.keys(value)) {
    if (!KEYS[key].has(inner))
      reading.problem(
        [key, inner],
        `'${key}.${inner}' is not a sub-agent setting (allowed: ${[...KEYS[key]].join(', ')}).`,
      );
  }
  return value as Record<string, unknown>;
}

function text_(
  reading: AgentReading,
  agent: Record<string, unknown>,
  path: readonly string[],
): string | undefined {
  const value = agent[path[1] as string];
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  reading.problem(path, `'${path.join('.')}' is required and must be text.`);
  return undefined;
}

function checkProtocol(reading: AgentReading, protocol: unknown): void {
  const value = typeof protocol === 'string' ? protocol.toLowerCase() : protocol;
  if (value === 'a2a') return;
  if (value === undefined || value === 'rasa') {
    reading.problem(
      ['agent', 'protocol'],
      "ReAct sub-agents (`protocol: rasa`, Rasa's default) need Rasa's LLM agent loop, which Parley does not run; write `protocol: a2a` and give an `agent_card` to call an A2A agent.",
      'SUB_AGENT_PROTOCOL_UNSUPPORTED',
    );
    return;
  }
  reading.problem(
    ['agent', 'protocol'],
    `'agent.protocol' must be a2a (or rasa), not '${String(protocol)}'.`,
  );
}

function cardOf(reading: AgentReading, root: string, card: unknown): AgentCardSource | undefined {
  if (typeof card !== 'string' || card.trim() === '') {
    reading.problem(
      ['configuration', 'agent_card'],
      "An A2A sub-agent needs 'configuration.agent_card': a URL or a JSON file.",
    );
    return undefined;
  }
  const value = card.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    if (/^https?:\/\//i.test(value) && URL.canParse(value)) return { kind: 'url', url: value };
    reading.problem(
      ['configuration', 'agent_card'],
      `The agent card URL '${value}' must be http:// or https://.`,
    );
    return undefined;
  }
  // Rasa resolves a file against the working directory, which is the project folder when it runs
  const path = isAbsolute(value) ? value : join(root, value);
  if (existsSync(path)) return { kind: 'file', path };
  reading.problem(
    ['configuration', 'agent_card'],
    `The agent card file '${value}' does not exist.`,
    'SUB_AGENT_CARD_NOT_FOUND',
  );
  return undefined;
}

function authOf(reading: AgentReading, auth: unknown): SubAgentAuth {
  if (auth === undefined || auth === null) return { kind: 'none' };
  const fields = record(auth);
  if (typeof fields['api_key'] === 'string' || typeof fields['api_key'] === 'number') {
    return {
      kind: 'api_key',
      key: String(fields['api_key']),
      header: typeof fields['header_name'] === 'string' ? fields['header_name'] : 'Authorization',
      format: typeof fields['header_format'] === 'string' ? fields['header_format'] : 'Bearer {key}',
    };
  }
  if (typeof fields['token'] === 'string') return { kind: 'token', token: fields['token'] };
  reading.problem(
    ['configuration', 'auth'],
    "'configuration.auth' needs `api_key` (with header_name, header_format) or `token`; OAuth and custom modules are not supported yet.",
  );
  return { kind: 'none' };
}

function positive(
  reading: AgentReading,
  configuration: Record<string, unknown>,
  key: string,
  fallback: number,
): number {
  const value = configuration[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 3600) return value;
  reading.problem(['configuration', key], `'configuration.${key}' must be a number above 0 (at most 3600).`);
  return fallback;
}

function slotList(reading: AgentReading, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  reading.problem(
    ['configuration', 'result_slots'],
    "'configuration.result_slots' must be a list of slot names.",
  );
  return [];
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function report(
  diagnostics: ProjectDiagnostics,
  code: DiagnosticCode,
  file: YamlFile | undefined,
  path: string,
  message: string,
  at: readonly PathSegment[] = [],
): void {
  const where = file && at.length > 0 ? lazyPositionOf(file, at, true) : { file: path, line: 1, column: 1 };
  diagnostics.at(code, where, message);
}
