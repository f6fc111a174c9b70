import type { TrackerState } from '../events/tracker-state.js';

/** a bare number, as a text-only client's user types it ("2", " 2.", "2)") */
const NUMBER = /^\s*(\d{1,3})\s*[.)]?\s*$/;

/**
 * A reply that is only a number picks that button of the latest bot message that offered buttons since
 * the user last spoke: text-only clients (the shell, A2A status messages, a plain chat) show buttons as a
 * numbered list. Every channel's turns go through this one rule, the shell's too. Answers the button's payload; undefined when the text is no such number.
 */
export function numberedChoice(text: string, state: TrackerState): string | undefined {
  const match = NUMBER.exec(text);
  if (!match) return undefined;
  for (let index = state.lastBotTurn.length - 1; index >= 0; index -= 1) {
    const data = state.lastBotTurn[index]?.data;
    // numbered as every text rendering numbers them: the buttons, then the quick replies
    const choices = [...(data?.buttons ?? []), ...choicesOf(data?.quick_replies)];
    if (choices.length > 0) return choices[Number(match[1]) - 1]?.payload;
  }
  return undefined;
}

/** Quick replies in Rasa's shape, `[{title, payload}]`; anything else offers nothing. */
function choicesOf(value: unknown): { readonly payload: string }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is { payload: string } =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as { payload?: unknown }).payload === 'string',
  );
}
