/**
 * Reads the action list an LLM wrote back into commands, following Rasa's command parser: one action
 * per line, every rule tried on every line, in Rasa's order. Both the phrase syntax of the Compact (v2)
 * and SearchReady (v3) generators (`start flow x`, `set slot name value`) and the call syntax of the
 * SingleStep generator (v1: `StartFlow(x)`, `SetSlot(name, value)`) are understood, whichever the prompt
 * asked for, since models mix them up. Output is data, never trusted: flow ids and slot names are
 * checked against the assistant, and the parser never throws.
 */
import type { Command } from '../../core/commands/types.js';

/** Rasa's command syntax versions: v1 SingleStep calls, v2 Compact phrases, v3 SearchReady phrases. */
export type DslSyntax = 'v1' | 'v2' | 'v3';

/** What the output may refer to. */
export interface DslVocabulary {
  /** the user flows the output may start or offer (patterns are never startable by the LLM) */
  readonly flowIds: ReadonlySet<string>;
  /** the domain's slots; a `set slot` for any other name is dropped */
  readonly slotNames: { has(name: string): boolean };
}

/** Bounds on what is read of an answer, so a runaway or hostile answer costs little. */
export const DSL_LIMITS = {
  /** characters of the answer that are read; the rest is ignored */
  maxCharacters: 20_000,
  /** lines that are read */
  maxLines: 200,
  /** longer lines are skipped: no action is that long */
  maxLineCharacters: 2_000,
} as const;

/** Values an LLM writes for "no value"; exact and case-sensitive, as in Rasa ("none" may be a real value). */
const NULL_VALUES = new Set(['', 'None', 'null', 'undefined', '[missing]', '[missing information]']);

// Python's `^[\s\W\d]*` (Unicode-aware): anything but letters and the underscore before the phrase,
// so "1. ", "- ", "* " and "`" prefixes are fine.
const LEAD = String.raw`^[^\p{L}_]*`;
const QUOTE = '[\'"`]';
const FLOW_ID = '([a-zA-Z0-9_-]+)';
const SLOT_NAME = '([a-zA-Z_][a-zA-Z0-9_-]*)';

const phrase = (words: string): RegExp => new RegExp(`${LEAD}${words}${QUOTE}*$`, 'u');

type Parsed = Command | undefined;
type Rule = (line: string, vocabulary: DslVocabulary) => Parsed;

const START_FLOW = [
  new RegExp(`${LEAD}start flow ${QUOTE}?${FLOW_ID}${QUOTE}*`, 'u'),
  /StartFlow\(['"]?([a-zA-Z0-9_-]+)['"]?\)/u,
];
const SET_SLOT_PHRASE = new RegExp(`${LEAD}set slot ${QUOTE}?${SLOT_NAME}${QUOTE}? ${QUOTE}?(.+)$`, 'u');
const SET_SLOT_CALL = /SetSlot\(['"]?([a-zA-Z_][a-zA-Z0-9_-]*)['"]?, ?['"]?(.*)['"]?\)/u;
const CLARIFY_PHRASE = new RegExp(`${LEAD}disambiguate flows (.*)$`, 'u');
const CLARIFY_CALL = /Clarify\((["'a-zA-Z0-9_, -]*)\)/u;
const CLARIFY_OPTIONS = /^["'a-zA-Z0-9_, -]*$/u;

/** A rule for an action without arguments: its phrases (v2/v3) and its call (v1). */
function simple(command: Command, phrases: readonly string[], call: string): Rule {
  const patterns = [...phrases.map(phrase), new RegExp(`${call}\\(\\)`, 'u')];
  return (line) => (patterns.some((pattern) => pattern.test(line)) ? { ...command } : undefined);
}

// Rasa's order of the default commands; a line may yield one command per rule.
const RULES: readonly Rule[] = [
  parseSetSlot,
  parseStartFlow,
  simple({ command: 'cancel flow' }, ['cancel flow'], 'CancelFlow'),
  simple({ command: 'chitchat' }, ['offtopic reply'], 'ChitChat'),
  simple({ command: 'skip question' }, ['skip question'], 'SkipQuestion'),
  simple({ command: 'knowledge' }, ['provide info', 'search and reply'], 'SearchAndReply'),
  simple({ command: 'human handoff' }, ['hand over'], 'HumanHandoff'),
  parseClarify,
  simple({ command: 'repeat' }, ['repeat message'], 'RepeatLastBotMessages'),
  simple({ command: 'cannot handle' }, ['cannot handle'], 'CannotHandle'),
];

/**
 * The commands in an LLM answer; empty when nothing in it could be used. Unknown flows, unknown slots
 * and disambiguations without two known flows are dropped here; the rest (a slot the flow does not ask
 * for, a second cancel) is the job of the engine's cleanup.
 */
export function parseDslCommands(output: unknown, vocabulary: DslVocabulary): Command[] {
  if (typeof output !== 'string') return [];
  const commands: Command[] = [];
  for (const line of answerLines(output)) {
    for (const rule of RULES) {
      const command = rule(line, vocabulary);
      if (command) commands.push(command);
    }
  }
  return commands;
}

/** Like parseDslCommands, but an answer without any usable action means `cannot handle` (Rasa's rule). */
export function parseDsl(output: unknown, vocabulary: DslVocabulary): Command[] {
  const commands = parseDslCommands(output, vocabulary);
  return commands.length > 0 ? commands : [{ command: 'cannot handle' }];
}

// Python's str.splitlines() boundaries (the file/group/record separators are control characters,
// which a regex literal may not name).
const SEPARATORS = String.fromCharCode(0x1c, 0x1d, 0x1e);
const LINE_BREAK = new RegExp(`\\r\\n|[\\n\\r\\v\\f${SEPARATORS}\\x85\\u2028\\u2029]`, 'u');

function answerLines(output: string): string[] {
  return output
    .slice(0, DSL_LIMITS.maxCharacters)
    .split(LINE_BREAK)
    .slice(0, DSL_LIMITS.maxLines)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && line.length <= DSL_LIMITS.maxLineCharacters);
}

function parseStartFlow(line: string, vocabulary: DslVocabulary): Parsed {
  for (const pattern of START_FLOW) {
    const flow = pattern.exec(line)?.[1];
    if (flow !== undefined) return startFlow(flow, vocabulary);
  }
  return undefined;
}

function parseSetSlot(line: string, vocabulary: DslVocabulary): Parsed {
  const spoken = SET_SLOT_PHRASE.exec(line);
  if (spoken) return setSlot(spoken[1] ?? '', phraseValue(spoken[2] ?? ''), vocabulary);
  const called = SET_SLOT_CALL.exec(line);
  if (called) return setSlot(called[1] ?? '', called[2] ?? '', vocabulary);
  return undefined;
}

function setSlot(name: string, rawValue: string, vocabulary: DslVocabulary): Parsed {
  const cleaned = stripEnds(rawValue, '\'" ');
  const value = isNullValue(cleaned) ? null : cleaned;
  // a model that "starts" a flow by setting a slot called flow_name means to start that flow
  if (name === 'flow_name') return value === null ? undefined : startFlow(value, vocabulary);
  if (!vocabulary.slotNames.has(name)) return undefined;
  return { command: 'set slot', name, value, extractor: 'LLM' };
}

function parseClarify(line: string, vocabulary: DslVocabulary): Parsed {
  let options: string | undefined;
  const spoken = CLARIFY_PHRASE.exec(line);
  if (spoken) {
    const core = stripTrailingNonWord(spoken[1] ?? '');
    if (CLARIFY_OPTIONS.test(core)) options = core;
  }
  options ??= CLARIFY_CALL.exec(line)?.[1];
  return options === undefined ? undefined : clarify(options, vocabulary);
}

/** Only known user flows are offered; one left means starting it, none means nothing. */
function clarify(options: string, vocabulary: DslVocabulary): Parsed {
  const names = options
    .replaceAll(',', ' ')
    .split(/\s+/u)
    .map((option) => stripEnds(option, '"\''))
    .filter((option) => vocabulary.flowIds.has(option));
  const unique = [...new Set(names)].sort();
  if (unique.length === 1) return { command: 'start flow', flow: unique[0] as string };
  return unique.length > 1 ? { command: 'clarify', options: unique } : undefined;
}

function startFlow(flow: string, vocabulary: DslVocabulary): Parsed {
  return vocabulary.flowIds.has(flow) ? { command: 'start flow', flow } : undefined;
}

/**
 * Rasa's `(.+?)[\W]*$`: the value keeps its first character and loses the non-word characters it ends
 * with (a closing quote, backtick or full stop). Done by hand: the regex is quadratic on long lines.
 */
function phraseValue(raw: string): string {
  return raw.slice(0, 1) + stripTrailingNonWord(raw.slice(1));
}

function isNullValue(value: string): boolean {
  return NULL_VALUES.has(value) || NULL_VALUES.has(`${value}]`);
}

const WORD_CHARACTER = /[\p{L}\p{M}\p{N}_]/u;

function stripTrailingNonWord(text: string): string {
  let end = text.length;
  while (end > 0 && !isWordCharacterBefore(text, end)) end -= codePointLengthBefore(text, end);
  return text.slice(0, end);
}

function isWordCharacterBefore(text: string, end: number): boolean {
  return WORD_CHARACTER.test(text.slice(end - codePointLengthBefore(text, end), end));
}

function codePointLengthBefore(text: string, end: number): number {
  const low = text.charCodeAt(end - 1);
  const high = end >= 2 ? text.charCodeAt(end - 2) : 0;
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1;
}

/** Python's str.strip(chars). */
function stripEnds(text: string, characters: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && characters.includes(text[start] as string)) start += 1;
  while (end > start && characters.includes(text[end - 1] as string)) end -= 1;
  return text.slice(start, end);
}
