/**
 * The AgentCard as JSON, in both protocol versions (spec/a2a.md §2.1). Parley describes its agent in the
 * v0.3 vocabulary without the endpoint fields (`CardContent`), then adds the endpoint for each shape:
 * v0.3's `url` + `preferredTransport`, v1.0's `supportedInterfaces`.
 */

/** v0.3 security scheme (OpenAPI style, `type` discriminator) */
export interface V03SecurityScheme {
  readonly type: 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  readonly description?: string;
  readonly scheme?: string;
  readonly bearerFormat?: string;
  readonly in?: string;
  readonly name?: string;
  readonly flows?: Readonly<Record<string, unknown>>;
  readonly openIdConnectUrl?: string;
  readonly oauth2MetadataUrl?: string;
}

/** v0.3 security requirement: scheme name → scopes */
export type V03SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface V03Skill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly examples?: readonly string[];
  readonly inputModes?: readonly string[];
  readonly outputModes?: readonly string[];
  readonly security?: readonly V03SecurityRequirement[];
}

export interface AgentProvider {
  readonly organization: string;
  readonly url: string;
}

export interface AgentExtension {
  readonly uri: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** What a card says about the agent, whatever the protocol version: a v0.3 card without its endpoint. */
export interface CardContent {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly provider?: AgentProvider;
  readonly documentationUrl?: string;
  readonly iconUrl?: string;
  readonly capabilities: {
    readonly streaming: boolean;
    readonly pushNotifications: boolean;
    readonly stateTransitionHistory?: boolean;
    readonly extensions?: readonly AgentExtension[];
  };
  readonly securitySchemes?: Readonly<Record<string, V03SecurityScheme>>;
  readonly security?: readonly V03SecurityRequirement[];
  readonly defaultInputModes: readonly string[];
  readonly defaultOutputModes: readonly string[];
  readonly skills: readonly V03Skill[];
}

export interface V1AgentInterface {
  readonly url: string;
  readonly protocolBinding: string;
  readonly protocolVersion: string;
  readonly tenant?: string;
}

/** the card v0.3 clients read; with `supportedInterfaces` added, v1.0 clients read it too */
export interface CombinedCard extends CardContent {
  readonly protocolVersion: string;
  readonly url: string;
  readonly preferredTransport: string;
  readonly supportsAuthenticatedExtendedCard: boolean;
  readonly supportedInterfaces: readonly V1AgentInterface[];
}

/** v1.0 security scheme: a oneof, written as the member's name */
export type V1SecurityScheme = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

export interface V1SecurityRequirement {
  readonly schemes: Readonly<Record<string, { readonly list: readonly string[] }>>;
}

export interface V1Skill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly examples?: readonly string[];
  readonly inputModes?: readonly string[];
  readonly outputModes?: readonly string[];
  readonly securityRequirements?: readonly V1SecurityRequirement[];
}

export interface V1Card {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly supportedInterfaces: readonly V1AgentInterface[];
  readonly provider?: AgentProvider;
  readonly documentationUrl?: string;
  readonly iconUrl?: string;
  readonly capabilities: {
    readonly streaming: boolean;
    readonly pushNotifications: boolean;
    readonly extendedAgentCard: boolean;
    readonly extensions?: readonly AgentExtension[];
  };
  readonly securitySchemes?: Readonly<Record<string, V1SecurityScheme>>;
  readonly securityRequirements?: readonly V1SecurityRequirement[];
  readonly defaultInputModes: readonly string[];
  readonly defaultOutputModes: readonly string[];
  readonly skills: readonly V1Skill[];
}

/** The cards one server serves: for `A2A-Version: 1.0`, and for everyone else. */
export interface ServedCards {
  readonly v1: V1Card;
  readonly combined: CombinedCard;
}
