/** An e-mail address, with its domain lower-cased. */
export interface EmailMatch {
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

const EMAIL =
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}](?:[\p{L}\p{N}._%+-]*[\p{L}\p{N}_%+-])?@((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,})(?![\p{L}\p{N}-])/gu;

export function findEmails(text: string): EmailMatch[] {
  return [...text.matchAll(EMAIL)].map((match) => {
    const domain = match[1] ?? '';
    const local = match[0].slice(0, match[0].length - domain.length - 1);
    return {
      start: match.index,
      end: match.index + match[0].length,
      value: `${local}@${domain.toLowerCase()}`,
    };
  });
}
