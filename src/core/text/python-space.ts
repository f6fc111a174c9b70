/**
 * Python's white space (str.isspace(), str.strip(), `\s` in re): JavaScript's trim() and `\s` also take
 * U+FEFF but leave U+001C-U+001F and U+0085, so text Rasa strips would keep characters here.
 */
export const PYTHON_SPACE =
  '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const AT_ENDS = new RegExp(`^[${PYTHON_SPACE}]+|[${PYTHON_SPACE}]+$`, 'g');

/** Python's str.strip() with no argument. */
export function pythonStrip(text: string): string {
  return text.replace(AT_ENDS, '');
}
