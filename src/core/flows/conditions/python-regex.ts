import type { ConditionAst } from './ast.js';

// The right-hand side of `matches` is pattern text, never a value looked up in the document:
// pypred takes the token's text, strips quote characters from both ends and compiles it with
// Python's `re`. Two ways to give flags: an unquoted `/pattern/flags` token (flags i s m l u), or
// Python's leading inline flags inside the pattern, e.g. "(?i)^rasa" as Rasa's docs show.
//
// Python patterns are translated into JS ones where the two syntaxes differ in ways conditions
// use: (?P<name>...), (?P=name), \A, \Z and leading (?aimsux). Known gaps: Python's \w, \d and \b
// are Unicode-aware (JS's are ASCII), Python's `$` also matches before a final newline, and the
// verbose flag (x) and scoped flags (?i:...) are reported as unsupported.

export type PatternResult =
  { readonly ok: true; readonly regex: RegExp } | { readonly ok: false; readonly message: string };

const SLASH_FORM = /^\/([\s\S]*)\/([A-Za-z]*)$/;
const INLINE_FLAGS = /^\(\?([A-Za-z]+)\)/;
const PYTHON_SYNTAX = /\\[\s\S]|\(\?P<|\(\?P=([A-Za-z_]\w*)\)/g;

/** Compiles the pattern token of a `matches` node, or says why Python would have rejected it. */
export function compileMatchPattern(node: ConditionAst): PatternResult {
  if (node.kind === 'identifier') {
    const slashForm = SLASH_FORM.exec(node.name);
    if (slashForm) return compilePythonPattern(slashForm[1] ?? '', slashForm[2] ?? '');
    return compilePythonPattern(stripQuoteCharacters(node.name), '');
  }
  if (node.kind === 'string') return compilePythonPattern(stripQuoteCharacters(node.value), '');
  return { ok: false, message: 'matches needs a pattern string on its right side' };
}

/** Python's str.strip("'\""): every quote character at either end goes, not just one pair. */
function stripQuoteCharacters(text: string): string {
  return text.replace(/^['"]+|['"]+$/g, '');
}

function compilePythonPattern(pattern: string, flagLetters: string): PatternResult {
  let source = pattern;
  let letters = flagLetters;
  for (let inline = INLINE_FLAGS.exec(source); inline; inline = INLINE_FLAGS.exec(source)) {
    letters += inline[1] ?? '';
    source = source.slice(inline[0].length);
  }
  const flags = jsFlags(letters);
  if (!flags.ok) return flags;
  try {
    return { ok: true, regex: new RegExp(translateSyntax(source), flags.flags) };
  } catch (error) {
    return { ok: false, message: `Invalid regular expression ${JSON.stringify(pattern)}: ${String(error)}` };
  }
}

type FlagsResult =
  { readonly ok: true; readonly flags: string } | { readonly ok: false; readonly message: string };

function jsFlags(letters: string): FlagsResult {
  const flags = new Set<string>();
  for (const letter of letters) {
    switch (letter) {
      case 'i':
      case 'm':
      case 's':
        flags.add(letter);
        break;
      case 'a':
      case 'u':
        // ASCII is JS's default for \w and friends; Unicode is Python 3's default for str patterns.
        break;
      case 'l':
      case 'L':
        return { ok: false, message: 'cannot use LOCALE flag with a str pattern' };
      case 'x':
        return { ok: false, message: 'the verbose regex flag (x) is not supported' };
      default:
        return { ok: false, message: `unknown regex flag ${JSON.stringify(letter)}` };
    }
  }
  return { ok: true, flags: [...flags].join('') };
}

function translateSyntax(source: string): string {
  return source.replace(PYTHON_SYNTAX, (match: string, backReference: string | undefined) => {
    if (backReference !== undefined) return `\\k<${backReference}>`;
    if (match === '(?P<') return '(?<';
    if (match === '\\A') return '(?<![\\s\\S])';
    if (match === '\\Z') return '(?![\\s\\S])';
    return match;
  });
}
