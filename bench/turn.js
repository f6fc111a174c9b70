// Engine throughput: turns per second of the agent alone (in process, memory store, no understanding
// model: direct payloads), on the bundled assistant; and the cost of late turns against early turns of
// one long conversation. Stub actions stand in for the assistant's custom actions so that only the
// engine is measured.
import { composeAgent } from '../dist/cli/compose.js';
import { loadProject } from '../dist/project/load-project.js';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 1000);
const LONG_TURNS = Number(process.env.BENCH_LONG_TURNS ?? 1000);
const WINDOW = 20;

const { project, diagnostics } = loadProject({ project: '.' });
if (diagnostics.hasErrors) throw new Error('the bundled assistant has validation errors');
const stubs = new Map([
  [
    'action_check_balance',
    { events: [{ event: 'slot', name: 'account_balance', value: 1234.5 }], responses: [] },
  ],
]);
let counter = 0;
const agent = await composeAgent({
  assistant: project.assistant,
  projectRoot: '/nonexistent-actions-folder',
  stubs,
  ids: { frameId: () => `F${(counter++).toString(36)}`, messageId: () => `M${(counter++).toString(36)}` },
  random: () => 0,
});

// One cycle = two turns: start the balance flow, answer its question (the flow ends, pattern_completed).
const CYCLE = ['/check_balance', '/SetSlots(account_type=savings)'];

async function turn(conversationId, index) {
  const started = process.hrtime.bigint();
  await agent.handleMessage({ conversationId, text: CYCLE[index % CYCLE.length] });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

// warm-up
for (let index = 0; index < 200; index += 1) await turn('warmup', index);

// Throughput: ROUNDS rounds of CONVERSATIONS fresh conversations (10 turns each); the best and the
// median round are reported, since other work on a shared machine only ever slows a round down.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const rates = [];
let turns = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  const started = process.hrtime.bigint();
  for (let conversation = 0; conversation < CONVERSATIONS; conversation += 1) {
    for (let index = 0; index < 10; index += 1) await turn(`r${round}c${conversation}`, index);
  }
  turns = CONVERSATIONS * 10;
  rates.push(turns / (Number(process.hrtime.bigint() - started) / 1e9));
}
rates.sort((a, b) => b - a);

// Late against early turns: several long conversations, and the median turn time in a window around
// turn 10 and around turn LONG_TURNS (medians resist GC pauses and a noisy shared machine).
const LONG_CONVERSATIONS = Number(process.env.BENCH_LONG_CONVERSATIONS ?? 5);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const early = [];
const late = [];
for (let conversation = 0; conversation < LONG_CONVERSATIONS; conversation += 1) {
  for (let index = 0; index < LONG_TURNS + WINDOW; index += 1) {
    const elapsed = await turn(`long${conversation}`, index);
    if (index >= 10 - WINDOW / 2 && index < 10 + WINDOW / 2) early.push(elapsed);
    if (index >= LONG_TURNS - WINDOW / 2 && index < LONG_TURNS + WINDOW / 2) late.push(elapsed);
  }
}
const earlyMedian = median(early);
const lateMedian = median(late);
const memory = process.memoryUsage();

console.log(
  `turns/s (one core, ${ROUNDS} rounds of ${turns} turns over ${CONVERSATIONS} new conversations): best ${rates[0].toFixed(0)}, median ${rates[Math.floor(rates.length / 2)].toFixed(0)}`,
);
console.log(
  `median turn time around turn 10: ${earlyMedian.toFixed(3)} ms; around turn ${LONG_TURNS}: ${lateMedian.toFixed(3)} ms; ratio ${(lateMedian / earlyMedian).toFixed(2)} (${LONG_CONVERSATIONS} conversations)`,
);
console.log(`heap used: ${(memory.heapUsed / 1e6).toFixed(1)} MB`);
