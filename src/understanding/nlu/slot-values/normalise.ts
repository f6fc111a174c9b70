/**
 * Text as compared by the slot fillers: NFKC, lower-cased, apostrophes dropped ("that's" -> "thats"),
 * every other non-letter/digit a space, whitespace collapsed.
 */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim();
}

export function words(text: string): string[] {
  const normalised = normalise(text);
  return normalised === '' ? [] : normalised.split(' ');
}
