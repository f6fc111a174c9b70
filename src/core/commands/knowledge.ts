import { pushPattern } from './push-pattern.js';
import type { CommandDefinition } from './types.js';

/** KnowledgeAnswer: an answer from the knowledge base (pushes pattern_search). */
export const knowledgeCommand: CommandDefinition<'knowledge'> = {
  name: 'knowledge',
  parse: () => ({ command: 'knowledge' }),
  apply: (_command, scope) => pushPattern(scope, 'pattern_search'),
};
