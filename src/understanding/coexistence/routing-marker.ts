/**
 * A domain with Rasa's routing slot but no router (coexistence without routing): the generators still
 * route the session to CALM as Rasa's do — an LLM command generator on every message it understands, the
 * NLU command adapter when it starts a flow — so that the flows, not the NLU-based policies, answer.
 */
import { hasRoutingSlot, routeTo } from '../../core/coexistence.js';
import type { Command } from '../../core/commands/types.js';
import type { CommandGenerator, Understanding } from '../../core/ports.js';

export function withRoutingToCalm(generator: CommandGenerator, kind: 'llm' | 'nlu'): CommandGenerator {
  return {
    async understand(input): Promise<Understanding> {
      const understood = await generator.understand(input);
      if (!hasRoutingSlot(input.engine.domain) || !marks(understood.commands, kind)) return understood;
      return { ...understood, commands: [...understood.commands, routeTo(true)] };
    },
  };
}

function marks(commands: readonly Command[], kind: 'llm' | 'nlu'): boolean {
  if (kind === 'nlu') return commands.some((command) => command.command === 'start flow');
  return commands.length > 0;
}
