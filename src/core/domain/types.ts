import type { SourceRef } from '../errors.js';
import type { Condition, Rejection } from '../flows/types.js';

export type SlotType = 'text' | 'bool' | 'float' | 'categorical' | 'any' | 'list';

export interface MappingCondition {
  readonly activeFlow?: string;
  readonly activeLoop?: string | null;
  readonly requestedSlot?: string;
}

interface MappingBase {
  readonly conditions: readonly MappingCondition[];
}

export type SlotMapping =
  | (MappingBase & { readonly type: 'from_llm'; readonly allowNluCorrection: boolean })
  | (MappingBase & { readonly type: 'controlled'; readonly runActionEveryTurn?: string })
  | (MappingBase & {
      readonly type: 'from_entity';
      readonly entity: string;
      readonly role?: string;
      readonly group?: string;
      readonly intent: readonly string[];
      readonly notIntent: readonly string[];
    })
  | (MappingBase & {
      readonly type: 'from_intent';
      readonly value: unknown;
      readonly intent: readonly string[];
      readonly notIntent: readonly string[];
    })
  | (MappingBase & {
      readonly type: 'from_trigger_intent';
      readonly value: unknown;
      readonly intent: readonly string[];
    })
  | (MappingBase & {
      readonly type: 'from_text';
      readonly intent: readonly string[];
      readonly notIntent: readonly string[];
    });

export type SlotMappingType = SlotMapping['type'];

export interface SlotValidation {
  readonly rejections: readonly Rejection[];
  readonly refillUtter?: string;
}

export interface Slot {
  readonly name: string;
  readonly type: SlotType;
  readonly initialValue: unknown;
  /** categorical slots only: the declared values, as strings */
  readonly values: readonly string[];
  readonly mappings: readonly SlotMapping[];
  readonly validation?: SlotValidation;
  readonly influenceConversation: boolean;
  /** coexistence: the slot keeps its value when a routing session ends (`action_reset_routing`) */
  readonly sharedForCoexistence?: boolean;
  readonly isDefault: boolean;
  readonly source?: SourceRef;
}

export interface Button {
  readonly title: string;
  readonly payload: string;
  /** the button's other keys (a channel's `type`, `url`, ...): Rasa sends the button dict whole */
  readonly extra?: Readonly<Record<string, unknown>>;
  readonly source?: SourceRef;
}

export type ResponseCondition =
  | { readonly kind: 'predicate'; readonly condition: Condition }
  | { readonly kind: 'slots'; readonly slots: readonly { readonly name: string; readonly value: unknown }[] };

export interface ResponseVariation {
  readonly text?: string;
  readonly buttons: readonly Button[];
  readonly image?: string;
  readonly custom?: unknown;
  readonly attachment?: unknown;
  readonly elements?: unknown;
  readonly quickReplies?: unknown;
  readonly channel?: string;
  readonly condition?: ResponseCondition;
  readonly id?: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly source?: SourceRef;
}

export interface ResponseTemplate {
  readonly name: string;
  readonly variations: readonly ResponseVariation[];
  readonly isDefault: boolean;
  readonly source?: SourceRef;
}

export interface ActionDeclaration {
  readonly name: string;
  readonly sendDomain: boolean;
  readonly source?: SourceRef;
}

export interface IntentDeclaration {
  readonly name: string;
  readonly useEntities: boolean | readonly string[];
  readonly ignoreEntities: readonly string[];
  readonly source?: SourceRef;
}

export interface SessionConfig {
  /** minutes; 0 means sessions never expire */
  readonly sessionExpirationTime: number;
  readonly carryOverSlotsToNewSession: boolean;
  readonly startSessionAfterExpiry: boolean;
}

export interface Domain {
  readonly intents: ReadonlyMap<string, IntentDeclaration>;
  readonly entities: readonly string[];
  readonly slots: ReadonlyMap<string, Slot>;
  readonly responses: ReadonlyMap<string, ResponseTemplate>;
  readonly actions: ReadonlyMap<string, ActionDeclaration>;
  readonly forms: Readonly<Record<string, unknown>>;
  readonly sessionConfig: SessionConfig;
}

export const DEFAULT_SESSION_CONFIG: SessionConfig = {
  sessionExpirationTime: 60,
  carryOverSlotsToNewSession: true,
  startSessionAfterExpiry: true,
};

/** Intents every domain knows without declaring them. */
export const DEFAULT_INTENTS: readonly string[] = [
  'restart',
  'back',
  'out_of_scope',
  'session_start',
  'session_end',
  'silence_timeout',
  'nlu_fallback',
];
