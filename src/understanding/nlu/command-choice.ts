import type { Command } from '../../core/commands/types.js';

/**
 * The commands of one message: duplicates removed, and `cannot handle` when nothing else is left (the
 * engine's own cleanup then applies Rasa's rules).
 */
export function cleanUpCommandsKeepCannotHandle(commands: readonly Command[]): Command[] {
  const seen = new Set<string>();
  const unique = commands.filter((command) => {
    const key = JSON.stringify(command);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.length > 0 ? unique : [{ command: 'cannot handle' }];
}
