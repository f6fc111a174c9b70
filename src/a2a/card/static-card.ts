/**
 * `a2a_server.agent_card_path`: a hand-written AgentCard served instead of the generated one. Rasa
 * writes it in the v0.3 shape; a v1.0 card (with `supportedInterfaces` and no `url`) is read too. Its
 * endpoint is always replaced by the resolved one, and so are the capabilities this server has
 * (streaming, push notifications): a card must not promise what the server does not do. Signatures
 * are dropped, as they no longer match once the endpoint changed. Everything else is served as written.
 */
import type { A2aConfigProblem } from '../config-fields.js';
import { isRecord } from '../config-fields.js';
import type { CardContent, V03SecurityRequirement, V03SecurityScheme, V03Skill } from './types.js';
import { mapValues } from './card-shapes.js';
import { DEFAULT_MODES } from './generated-card.js';

export interface StaticCardResult {
  readonly content?: CardContent;
  readonly problems: readonly A2aConfigProblem[];
  readonly warnings: readonly string[];
}

const KEY = 'a2a_server.agent_card_path';
const SCHEME_TYPES = ['http', 'apiKey', 'oauth2', 'openIdConnect', 'mutualTLS'];

/** Reads a parsed card file; `capabilities` are the server's. */
export function staticCardContent(
  json: unknown,
  capabilities: CardContent['capabilities'],
): StaticCardResult {
  const problems: string[] = [];
  const warnings: string[] = [];
  if (!isRecord(json)) return failed(['is not a JSON object']);
  const v1 = !('url' in json) && Array.isArray(json['supportedInterfaces']);
  const text = (key: string): string => {
    const value = json[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
    problems.push(`has no '${key}' (non-empty text)`);
    return '';
  };
  const name = text('name');
  const description = text('description');
  const version = text('version');
  const skills = readSkills(json['skills'], v1, problems);
  const security = readSecurity(json, v1, problems);
  if (Array.isArray(json['signatures']) && json['signatures'].length > 0)
    warnings.push('its signatures are not served: they do not cover the endpoint Parley fills in');
  if (problems.length > 0) return failed(problems);
  const extensions = isRecord(json['capabilities']) ? json['capabilities']['extensions'] : undefined;
  const content: CardContent = {
    name,
    description,
    version,
    ...optional(json, 'provider', (value) => isRecord(value) && typeof value['organization'] === 'string'),
    ...optional(json, 'documentationUrl', (value) => typeof value === 'string'),
    ...optional(json, 'iconUrl', (value) => typeof value === 'string'),
    capabilities: { ...capabilities, ...(Array.isArray(extensions) ? { extensions } : {}) },
    ...security,
    defaultInputModes: modes(json['defaultInputModes']),
    defaultOutputModes: modes(json['defaultOutputModes']),
    skills,
  };
  return { content, problems: [], warnings };
}

function failed(messages: readonly string[]): StaticCardResult {
  return {
    problems: messages.map((message) => ({ code: 'A2A_AGENT_CARD_INVALID', key: KEY, message })),
    warnings: [],
  };
}

function optional(json: Record<string, unknown>, key: string, valid: (value: unknown) => boolean) {
  return valid(json[key]) ? { [key]: json[key] } : {};
}

function modes(value: unknown): readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') && value.length > 0
    ? (value as string[])
    : DEFAULT_MODES;
}

function readSkills(value: unknown, v1: boolean, problems: string[]): V03Skill[] {
  if (!Array.isArray(value) || value.length === 0) {
    problems.push("has no 'skills' (a list of at least one skill)");
    return [];
  }
  return value.flatMap((item: unknown, index) => {
    const fields = isRecord(item) ? item : {};
    const missing = ['id', 'name', 'description'].filter((key) => typeof fields[key] !== 'string');
    if (missing.length > 0) {
      problems.push(`skills[${index}] has no ${missing.join(', ')}`);
      return [];
    }
    const { securityRequirements, security, tags, ...rest } = fields;
    const requirements = v1 ? fromV1Requirements(securityRequirements) : security;
    return [
      {
        ...(rest as unknown as V03Skill),
        tags: Array.isArray(tags) ? (tags as string[]) : [],
        ...(Array.isArray(requirements) ? { security: requirements as V03SecurityRequirement[] } : {}),
      },
    ];
  });
}

function readSecurity(
  json: Record<string, unknown>,
  v1: boolean,
  problems: string[],
): Pick<CardContent, 'securitySchemes' | 'security'> {
  const schemes = json['securitySchemes'];
  if (!isRecord(schemes)) return {};
  const converted = mapValues(schemes, (scheme) => (v1 ? fromV1Scheme(scheme) : scheme));
  for (const [name, scheme] of Object.entries(converted))
    if (!isRecord(scheme) || !SCHEME_TYPES.includes(String(scheme['type'])))
      problems.push(`securitySchemes.${name} is not a security scheme`);
  const security = v1 ? fromV1Requirements(json['securityRequirements']) : json['security'];
  return {
    securitySchemes: converted as Record<string, V03SecurityScheme>,
    ...(Array.isArray(security) ? { security: security as V03SecurityRequirement[] } : {}),
  };
}

const V1_SCHEME_TYPES: Readonly<Record<string, string>> = {
  httpAuthSecurityScheme: 'http',
  apiKeySecurityScheme: 'apiKey',
  oauth2SecurityScheme: 'oauth2',
  openIdConnectSecurityScheme: 'openIdConnect',
  mtlsSecurityScheme: 'mutualTLS',
};

function fromV1Scheme(scheme: unknown): unknown {
  if (!isRecord(scheme)) return scheme;
  const [member, value] = Object.entries(scheme)[0] ?? [];
  const type = member === undefined ? undefined : V1_SCHEME_TYPES[member];
  if (type === undefined || !isRecord(value)) return scheme;
  const { location, ...rest } = value;
  return { type, ...rest, ...(location === undefined ? {} : { in: location }) };
}

function fromV1Requirements(value: unknown): unknown {
  if (!Array.isArray(value)) return undefined;
  return value.map((requirement: unknown) => {
    const schemes = isRecord(requirement) && isRecord(requirement['schemes']) ? requirement['schemes'] : {};
    return mapValues(schemes, (scopes) =>
      isRecord(scopes) && Array.isArray(scopes['list']) ? scopes['list'] : [],
    );
  });
}
