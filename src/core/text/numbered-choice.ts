import type { TrackerState } from '../events/tracker-state.js';

/** a bare number, as a text-only client's user types it ("2", " 2.", "2)") */
const NUMBER = /^\s*(\d{1,3})\s*[.)]?\s*$/;

/**
 * A reply that is only a number picks that button of the latest bot message that offered buttons since
 * the user last spoke: text-only clients (the shell, A2A status messages, a plain chat) show buttons as a
 * numbered list. Answers the button's payload; undefined when the text is no such number.
 */
export function numberedChoice(text: string, state: TrackerState): string | undefined {
  const match = NUMBER.exec(text);
  if (!match) return undefined;
  for (let index = state.lastBotTurn.length - 1; index >= 0; index -= 1) {
    const buttons = state.lastBotTurn[index]?.data.buttons ?? [];
    if (buttons.length > 0) return buttons[Number(match[1]) - 1]?.payload;
  }
  return undefined;
}
