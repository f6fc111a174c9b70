/** The sections of Parley's command prompt, by their `## Title` heading, each body trimmed. */
export function promptSections(prompt: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const part of prompt.split(/^## /mu).slice(1)) {
    const newline = part.indexOf('\n');
    const title = newline < 0 ? part : part.slice(0, newline);
    sections.set(title.trim(), newline < 0 ? '' : part.slice(newline + 1).trim());
  }
  return sections;
}

/** The prompt's state section: the active flow, its step, the requested slot and the slots shown. */
export interface PromptState {
  readonly active_flow: string;
  readonly current_step: string;
  readonly requested_slot?: string;
  readonly slots: readonly { readonly name: string; readonly value: string; readonly type: string }[];
}

/** The state section as data; undefined when it says no flow is active. */
export function promptState(prompt: string): PromptState | undefined {
  const body = promptSections(prompt).get('Where the conversation is') ?? '';
  return body.startsWith('{') ? (JSON.parse(body) as PromptState) : undefined;
}

/** The flows the prompt offers, as data. */
export function promptFlows(prompt: string): { name: string; description: string }[] {
  const body = promptSections(prompt).get('Flows the user can start') ?? '';
  return body.startsWith('[') ? (JSON.parse(body) as { name: string; description: string }[]) : [];
}

/** The transcript lines (`USER: ...`, `AI: ...`). */
export function promptConversation(prompt: string): string[] {
  return (promptSections(prompt).get('Conversation so far') ?? '').split('\n');
}
