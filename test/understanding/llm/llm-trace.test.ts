import { expect } from 'chai';
import type { TraceEvent } from '../../../src/core/trace/trace-events.js';
import { LlmCommandGenerator } from '../../../src/understanding/llm/llm-command-generator.js';
import type { ChatResult } from '../../../src/understanding/llm/openai-client.js';
import { bankAssistant, emptyState, engineFor } from './helpers.js';

function generatorAnswering(answer: ChatResult): LlmCommandGenerator {
  return new LlmCommandGenerator({ client: { complete: async () => answer } });
}

describe('LLM command generator: trace', () => {
  const assistant = bankAssistant();
  const engine = engineFor(assistant);

  it('records the text the LLM answered beside the commands parsed from it', async () => {
    const heard: TraceEvent[] = [];
    const generator = generatorAnswering({ ok: true, text: 'start flow transfer_money' });
    const understood = await generator.understand({
      text: 'send money',
      state: emptyState(assistant),
      engine,
      trace: { record: (event) => heard.push(event) },
    });
    expect(heard).to.deep.equal([
      {
        type: 'commands_understood',
        conversationId: emptyState(assistant).senderId,
        source: { kind: 'llm', output: 'start flow transfer_money' },
        commands: [{ command: 'start flow', flow: 'transfer_money' }],
      },
    ]);
    expect(understood.commands).to.deep.equal([{ command: 'start flow', flow: 'transfer_money' }]);
  });

  it('records why there was no answer, and a payload as a payload', async () => {
    const heard: TraceEvent[] = [];
    const trace = { record: (event: TraceEvent) => heard.push(event) };
    const failing = generatorAnswering({
      ok: false,
      error: { code: 'LLM_TIMEOUT', message: 'no answer in 7 s', attempts: 1 },
    } as unknown as ChatResult);
    await failing.understand({ text: 'send money', state: emptyState(assistant), engine, trace });
    await failing.understand({
      text: '/SetSlots(recipient=Jane)',
      state: emptyState(assistant),
      engine,
      trace,
    });
    const sources = heard.map((event) => event.type === 'commands_understood' && event.source);
    expect(sources).to.deep.equal([
      { kind: 'llm_error', error: 'LLM_TIMEOUT: no answer in 7 s' },
      { kind: 'payload', payload: 'set_slots' },
    ]);
  });
});
