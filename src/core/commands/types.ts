import type { TurnDraft } from '../draft.js';
import type { EngineContext } from '../engine-context.js';
import type { Stack } from '../stack/frames.js';

export type SlotExtractor = 'LLM' | 'NLU' | 'CommandPayloadReader' | 'CUSTOM';

export interface CorrectedSlot {
  readonly name: string;
  readonly value: unknown;
  readonly filled_by?: string;
}

/** The commands understanding produces, in the dict form Rasa stores in `parse_data.commands`. */
export type Command =
  | { readonly command: 'start flow'; readonly flow: string }
  | {
      readonly command: 'set slot';
      readonly name: string;
      readonly value: unknown;
      readonly extractor?: SlotExtractor;
    }
  | { readonly command: 'cancel flow' }
  | { readonly command: 'clarify'; readonly options: readonly string[] }
  | { readonly command: 'chitchat' }
  | { readonly command: 'knowledge' }
  | { readonly command: 'human handoff' }
  | { readonly command: 'skip question' }
  | { readonly command: 'cannot handle'; readonly reason?: string }
  | { readonly command: 'correct slot'; readonly corrected_slots: readonly CorrectedSlot[] }
  | { readonly command: 'repeat' }
  | { readonly command: 'restart' }
  | { readonly command: 'session start' }
  | { readonly command: 'change flow' }
  | {
      readonly command: 'error';
      readonly error_type: string;
      readonly info?: Readonly<Record<string, unknown>>;
    };

export type CommandName = Command['command'];
export type CommandOf<N extends CommandName> = Extract<Command, { command: N }>;

/** What a command sees while it is applied: the turn's draft and the stack as it was before any command. */
export interface CommandScope {
  readonly draft: TurnDraft;
  readonly context: EngineContext;
  readonly originalStack: Stack;
  /** flows the turn's commands start (their slots may be filled in the same turn, before or after the start) */
  readonly startedFlows: ReadonlySet<string>;
}

export interface CommandDefinition<N extends CommandName> {
  readonly name: N;
  /** reads the serialised dict; undefined when a required field is missing or of the wrong type */
  parse(raw: Readonly<Record<string, unknown>>): CommandOf<N> | undefined;
  apply(command: CommandOf<N>, scope: CommandScope): void;
}
