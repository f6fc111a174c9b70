import { isNumberWord, parseNumberWords, scaleOf } from './number-words.js';

/** A number found in text, with its offsets. */
export interface NumberMatch {
  readonly start: number;
  readonly end: number;
  readonly value: number;
}

/** Digits with optional `,` thousands groups and a `.` decimal part: 12, -3, 1,200.50, 0.5 */
const DIGITS = /(?<![\p{L}\p{N}_.,])([-+−]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\p{L}\p{N}_]|[.,]\d)/gu;
const SCALE_AFTER = /^\s+(hundred|thousand|million|billion)(?![\p{L}\p{N}])/iu;
const WORD = /\p{L}+/gu;
/** Words after which a lone "one" is a pronoun ("the savings one", "which one"), not a number. */
const DETERMINERS = new Set([
  ...'the that this these those which each every any another other no some'.split(' '),
  ...'either neither whichever last first next same right wrong'.split(' '),
]);

/** Numbers written with digits ("1,200.50", "2 million") or in English words ("twenty five", "fifty"). */
export function findNumbers(text: string): NumberMatch[] {
  return [...digitNumbers(text), ...wordNumbers(text)].sort((a, b) => a.start - b.start);
}

function digitNumbers(text: string): NumberMatch[] {
  const found: NumberMatch[] = [];
  for (const match of text.matchAll(DIGITS)) {
    const sign = match[1] === '' ? 1 : match[1] === '+' ? 1 : -1;
    let value = sign * Number(`${(match[2] ?? '').replaceAll(',', '')}${match[3] ?? ''}`);
    let end = match.index + match[0].length;
    const scale = SCALE_AFTER.exec(text.slice(end));
    const factor = scale?.[1] ? scaleOf(scale[1]) : undefined;
    if (scale && factor !== undefined) {
      value *= factor;
      end += scale[0].length;
    }
    if (Number.isFinite(value)) found.push({ start: match.index, end, value });
  }
  return found;
}

interface Word {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

function wordNumbers(text: string): NumberMatch[] {
  const words: Word[] = [...text.matchAll(WORD)].map((m) => ({
    text: m[0],
    start: m.index,
    end: m.index + m[0].length,
  }));
  const found: NumberMatch[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    if (!word || !(isNumberWord(word.text) || word.text.toLowerCase() === 'a')) continue;
    const run = joinedRun(text, words, index);
    const parsed = parseNumberWords(run.map((candidate) => candidate.text));
    const last = parsed ? run[parsed.length - 1] : undefined;
    if (!parsed || !last) continue;
    if (!(parsed.length === 1 && isPronounOne(words, index)))
      found.push({ start: word.start, end: last.end, value: parsed.value });
    index += parsed.length - 1;
  }
  return found;
}

/** The words from `index` on that are separated only by spaces or single hyphens. */
function joinedRun(text: string, words: readonly Word[], index: number): Word[] {
  const run: Word[] = [];
  for (let at = index; at < words.length; at++) {
    const word = words[at];
    const previous = run[run.length - 1];
    if (!word || (previous && !/^(?:\s+|-)$/.test(text.slice(previous.end, word.start)))) break;
    run.push(word);
  }
  return run;
}

function isPronounOne(words: readonly Word[], index: number): boolean {
  if (words[index]?.text.toLowerCase() !== 'one') return false;
  return [words[index - 1], words[index - 2]].some(
    (word) => word && DETERMINERS.has(word.text.toLowerCase()),
  );
}
