/** A light English suffix stripper (plural, -ing, -ed, -ly): enough to fold common inflections. */
const RULES: readonly (readonly [RegExp, string])[] = [
  [/^(.{2,})ies$/, '$1y'],
  [/^(.{2,}(?:ss|sh|ch|x|z))es$/, '$1'],
  [/^(.{3,}[^s'u])s$/, '$1'],
  [/^(.{2,}?)(?:ing|ed)$/, '$1'],
  [/^(.{3,})ly$/, '$1'],
];

export function stem(token: string): string {
  if (token.length < 4 || token.includes("'")) return token;
  for (const [pattern, replacement] of RULES) {
    if (pattern.test(token)) return undouble(token.replace(pattern, replacement));
  }
  return token;
}

function undouble(word: string): string {
  return /([bdfgmnprt])\1$/.test(word) ? word.slice(0, -1) : word;
}
