/**
 * A scripted "LLM" for the fake OpenAI server: it answers each command prompt with the commands a
 * corpus oracle lists for that user turn, written in Rasa's command DSL, so that the real
 * LlmCommandGenerator (prompt, HTTP client, DSL parser, filters) is what turns them into commands.
 *
 * The turn is found from the prompt alone, as a real model would have to: the latest user message
 * (the last `USER:` line of the transcript) and the user message before it. Only the runner knows which
 * test case is running, so ties between turns of different cases that read the same are broken by
 * continuity (the next unanswered turn of the case answered last) and then by oracle order; a tie
 * between turns whose commands differ is reported as a problem, never guessed silently.
 */
import type { SerializedCommand } from '../../src/core/events/types.js';
import type { DslSyntax } from '../../src/understanding/llm/dsl.js';
import type { CommandOracle } from '../../src/testing/oracle.js';
import type { FakeReply, FakeRequest } from './fake-openai.js';

/** One free-text user turn of an oracle test case: what the model must answer to it. */
export interface ScriptedTurn {
  /** `file::test case`, the oracle's key */
  readonly caseKey: string;
  /** 0-based among the test case's user steps (payloads included) */
  readonly turnIndex: number;
  readonly user: string;
  /** the user message before this one, if any */
  readonly previousUser?: string;
  /** the message before was a `/...` payload, which the transcript may show as its button's title */
  readonly previousIsPayload: boolean;
  readonly commands: readonly SerializedCommand[];
  /** `commands` in the command DSL */
  readonly answer: string;
}

/** What the model answered to one request, and which oracle turn it took the request for. */
export interface AnsweredRequest {
  readonly requestIndex: number;
  readonly latestUser: string;
  readonly turn: ScriptedTurn;
}

/** The free-text turns of the oracle's deterministic test cases, in oracle order. */
export function scriptedTurns(oracle: CommandOracle, syntax: DslSyntax): ScriptedTurn[] {
  return oracle.entries
    .filter((entry) => entry.deterministicWithOracle)
    .flatMap((entry) =>
      entry.turns.flatMap((turn, turnIndex): ScriptedTurn[] => {
        if (!('commands' in turn)) return [];
        const previous = turnIndex > 0 ? entry.turns[turnIndex - 1] : undefined;
        return [
          {
            caseKey: `${entry.file}::${entry.testCase}`,
            turnIndex,
            user: turn.user,
            ...(previous ? { previousUser: previous.user } : {}),
            previousIsPayload: previous !== undefined && 'payload' in previous,
            commands: turn.commands,
            answer: renderDsl(turn.commands, syntax),
          },
        ];
      }),
    );
}

/** The commands as the Compact (v2) / SearchReady (v3) phrases or the SingleStep (v1) calls. */
export function renderDsl(commands: readonly SerializedCommand[], syntax: DslSyntax): string {
  return commands.map((command) => renderCommand(command, syntax)).join('\n');
}

function renderCommand(command: SerializedCommand, syntax: DslSyntax): string {
  const calls = syntax === 'v1';
  switch (command.command) {
    case 'start flow':
      return calls ? `StartFlow(${String(command['flow'])})` : `start flow ${String(command['flow'])}`;
    case 'set slot': {
      const name = String(command['name']);
      const value = dslValue(command['value']);
      return calls ? `SetSlot(${name}, ${value})` : `set slot ${name} ${value}`;
    }
    case 'cancel flow':
      return calls ? 'CancelFlow()' : 'cancel flow';
    case 'clarify': {
      const options = (command['options'] as readonly string[]).join(calls ? ', ' : ' ');
      return calls ? `Clarify(${options})` : `disambiguate flows ${options}`;
    }
    case 'chitchat':
      return calls ? 'ChitChat()' : 'offtopic reply';
    case 'knowledge':
      return calls ? 'SearchAndReply()' : syntax === 'v3' ? 'search and reply' : 'provide info';
    case 'human handoff':
      return calls ? 'HumanHandoff()' : 'hand over';
    case 'skip question':
      return calls ? 'SkipQuestion()' : 'skip question';
    case 'repeat':
      return calls ? 'RepeatLastBotMessages()' : 'repeat message';
    case 'cannot handle':
      return calls ? 'CannotHandle()' : 'cannot handle';
    default:
      throw new Error(`The oracle command '${command.command}' has no DSL form.`);
  }
}

/** A slot value as a model writes it: Python's spelling of booleans and of "no value". */
function dslValue(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** What the prompt's transcript (`USER: ...` and `AI: ...` lines) says about the user's messages. */
export interface PromptUsers {
  readonly latest?: string;
  /** the user message before the latest one */
  readonly previous?: string;
  /** the previous message is the title of a button the assistant offered: its payload is not shown */
  readonly previousIsButton: boolean;
}

export function promptUsers(prompt: string): PromptUsers {
  const lines = prompt.split('\n');
  const users = lines.filter((line) => line.startsWith('USER: ')).map((line) => line.slice('USER: '.length));
  const latest = users[users.length - 1];
  const previous = users[users.length - 2];
  const buttons = lines.filter((line) => line.startsWith('AI: ') && line.includes('(options: '));
  return {
    ...(latest === undefined ? {} : { latest: normalise(latest) }),
    ...(previous === undefined ? {} : { previous: normalise(previous) }),
    previousIsButton: previous !== undefined && buttons.some((line) => line.includes(previous)),
  };
}

function normalise(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/** Answers prompts from a list of scripted turns; each turn is answered at most once. */
export class OracleResponder {
  readonly answered: AnsweredRequest[] = [];
  /** requests it could not attribute to exactly one answer */
  readonly problems: string[] = [];
  private readonly pending: ScriptedTurn[];
  private lastCase: string | undefined;

  constructor(turns: readonly ScriptedTurn[]) {
    this.pending = [...turns];
  }

  /** The handler to give the fake server. */
  readonly handle = (request: FakeRequest): FakeReply => {
    const users = promptUsers(request.prompt);
    if (users.latest === undefined) return this.problem(request, 'the prompt shows no user message');
    const latest = users.latest;
    const turn = this.choose(latest, users, request);
    if (!turn) return { content: 'cannot handle' };
    this.pending.splice(this.pending.indexOf(turn), 1);
    this.lastCase = turn.caseKey;
    this.answered.push({ requestIndex: request.index, latestUser: latest, turn });
    return { content: turn.answer };
  };

  private choose(latest: string, prompt: PromptUsers, request: FakeRequest): ScriptedTurn | undefined {
    const sameText = this.pending.filter((turn) => normalise(turn.user) === latest);
    if (sameText.length === 0) {
      this.problem(request, `no unanswered oracle turn says ${JSON.stringify(latest)}`);
      return undefined;
    }
    const inContext = sameText.filter((turn) => fitsContext(turn, prompt));
    if (inContext.length === 0) {
      const after = JSON.stringify(prompt.previous);
      this.problem(request, `no oracle turn says ${JSON.stringify(latest)} after ${after}`);
      return undefined;
    }
    const next = this.pending.find((turn) => turn.caseKey === this.lastCase);
    const continuing = inContext.find((turn) => turn === next);
    if (continuing) return continuing;
    if (new Set(inContext.map((turn) => turn.answer)).size > 1) {
      const cases = inContext.map((turn) => turn.caseKey).join(', ');
      this.problem(request, `${JSON.stringify(latest)} is ambiguous between ${cases}`);
      return undefined;
    }
    return inContext[0];
  }

  private problem(request: FakeRequest, message: string): FakeReply {
    this.problems.push(`request ${request.index}: ${message}`);
    return { content: 'cannot handle' };
  }
}

/**
 * The prompt's previous user message must be the turn's previous one. A payload, and a typed text
 * that equals a button's payload, show as the button's title, so those fit any previous message.
 */
function fitsContext(turn: ScriptedTurn, prompt: PromptUsers): boolean {
  if (turn.previousUser === undefined) return prompt.previous === undefined;
  if (prompt.previous === undefined) return false;
  return (
    turn.previousIsPayload || prompt.previousIsButton || normalise(turn.previousUser) === prompt.previous
  );
}
