/**
 * The two shapes of one card (spec/a2a.md §1.5, §2.1). Both list the same JSON-RPC endpoint twice in
 * `supportedInterfaces`, at protocol versions 1.0 and 0.3, because one endpoint serves both (routed by
 * method name). The combined card is a complete v0.3 card (`url`, `preferredTransport`,
 * `protocolVersion: 0.3.0`) that also carries `supportedInterfaces`, so a v1.0 client that sends no
 * `A2A-Version` header reads it as well: v1.0 SDKs prefer `supportedInterfaces` when present.
 */
import type {
  CardContent,
  CombinedCard,
  V03SecurityRequirement,
  V03SecurityScheme,
  V03Skill,
  V1AgentInterface,
  V1Card,
  V1SecurityRequirement,
  V1SecurityScheme,
  V1Skill,
} from './types.js';

export const JSONRPC_BINDING = 'JSONRPC';
export const V03_PROTOCOL_VERSION = '0.3.0';
/** v1.0 interfaces carry Major.Minor only */
export const SERVED_VERSIONS = ['1.0', '0.3'] as const;

export function jsonRpcInterfaces(endpointUrl: string): V1AgentInterface[] {
  return SERVED_VERSIONS.map((protocolVersion) => ({
    url: endpointUrl,
    protocolBinding: JSONRPC_BINDING,
    protocolVersion,
  }));
}

export function combinedCard(content: CardContent, endpointUrl: string): CombinedCard {
  return {
    protocolVersion: V03_PROTOCOL_VERSION,
    ...content,
    url: endpointUrl,
    preferredTransport: JSONRPC_BINDING,
    supportsAuthenticatedExtendedCard: false,
    supportedInterfaces: jsonRpcInterfaces(endpointUrl),
  };
}

export function v1Card(content: CardContent, endpointUrl: string): V1Card {
  const { capabilities } = content;
  return {
    name: content.name,
    description: content.description,
    version: content.version,
    supportedInterfaces: jsonRpcInterfaces(endpointUrl),
    ...(content.provider ? { provider: content.provider } : {}),
    ...(content.documentationUrl ? { documentationUrl: content.documentationUrl } : {}),
    ...(content.iconUrl ? { iconUrl: content.iconUrl } : {}),
    capabilities: {
      streaming: capabilities.streaming,
      pushNotifications: capabilities.pushNotifications,
      extendedAgentCard: false,
      ...(capabilities.extensions ? { extensions: capabilities.extensions } : {}),
    },
    ...(content.securitySchemes ? { securitySchemes: mapValues(content.securitySchemes, v1Scheme) } : {}),
    ...(content.security ? { securityRequirements: content.security.map(v1Requirement) } : {}),
    defaultInputModes: content.defaultInputModes,
    defaultOutputModes: content.defaultOutputModes,
    skills: content.skills.map(v1Skill),
  };
}

function v1Skill(skill: V03Skill): V1Skill {
  const { security, ...rest } = skill;
  return security ? { ...rest, securityRequirements: security.map(v1Requirement) } : rest;
}

export function v1Requirement(requirement: V03SecurityRequirement): V1SecurityRequirement {
  return { schemes: mapValues(requirement, (scopes) => ({ list: [...scopes] })) };
}

/** v1.0 allows one OAuth flow per scheme; the first of these a v0.3 scheme declares is kept */
const OAUTH_FLOW_ORDER = ['authorizationCode', 'clientCredentials', 'deviceCode', 'implicit', 'password'];

export function v1Scheme(scheme: V03SecurityScheme): V1SecurityScheme {
  const description = scheme.description ? { description: scheme.description } : {};
  switch (scheme.type) {
    case 'http':
      return {
        httpAuthSecurityScheme: {
          scheme: scheme.scheme ?? 'bearer',
          ...(scheme.bearerFormat ? { bearerFormat: scheme.bearerFormat } : {}),
          ...description,
        },
      };
    case 'apiKey':
      return {
        apiKeySecurityScheme: { location: scheme.in ?? 'header', name: scheme.name ?? '', ...description },
      };
    case 'oauth2': {
      const flows = scheme.flows ?? {};
      const first = OAUTH_FLOW_ORDER.find((flow) => flows[flow] !== undefined);
      return {
        oauth2SecurityScheme: {
          flows: first === undefined ? {} : { [first]: flows[first] },
          ...(scheme.oauth2MetadataUrl ? { oauth2MetadataUrl: scheme.oauth2MetadataUrl } : {}),
          ...description,
        },
      };
    }
    case 'openIdConnect':
      return {
        openIdConnectSecurityScheme: { openIdConnectUrl: scheme.openIdConnectUrl ?? '', ...description },
      };
    case 'mutualTLS':
      return { mtlsSecurityScheme: { ...description } };
  }
}

export function mapValues<T, U>(
  record: Readonly<Record<string, T>>,
  map: (value: T) => U,
): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}
