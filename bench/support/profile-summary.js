// Reads a `node --cpu-prof` profile and prints where the time went: self time per function and
// inclusive time per function (a function counted once per sample however deep it recurses), as
// percentages of the kept samples. `--stack <text>` keeps only the samples whose stack has a frame
// from a file whose path contains the text (e.g. `--stack main/dist/` keeps Parley's own work and drops
// a baseline server profiled in the same process); the garbage collector's and idle samples are
// printed separately since they belong to no stack.
//
// `--children <text>` also splits the time of the outermost frame whose label contains the text among
// the functions it calls (its own code counted as "(self)").
//
//   node bench/support/profile-summary.js CPU.cpuprofile [--stack main/dist/] [--window 12-22] [--top 40] [--match text] [--children text]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const root = `file://${process.cwd()}/`;
const file = args[0];
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const stackFilter = option('--stack');
const top = Number(option('--top', 40));
const match = option('--match');
const childrenOf = option('--children');
// `--window FROM-TO`: only the samples taken FROM to TO seconds after the profile started (the
// measured run of a benchmark, without its start-up, training or baseline)
const [windowFrom, windowTo] = option('--window', '0-1e9')
  .split('-')
  .map((value) => Number(value) * 1e6);

const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const label = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const modules = url.indexOf('node_modules/');
  const short = modules >= 0 ? url.slice(modules + 'node_modules/'.length) : url.replace(root, '');
  return `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
};

const stackOf = (id) => {
  const stack = [];
  for (let at = id; at !== undefined; at = parent.get(at)) stack.push(nodes.get(at));
  return stack;
};

const specialNames = new Set(['(garbage collector)', '(idle)', '(program)', '(root)']);
const self = new Map();
const inclusive = new Map();
const children = new Map();
const special = new Map();
let kept = 0;
let total = 0;
let clock = 0;
for (let index = 0; index < profile.samples.length; index += 1) {
  const delta = profile.timeDeltas[index + 1] ?? 0;
  clock += profile.timeDeltas[index];
  if (clock < windowFrom || clock > windowTo) continue;
  const node = nodes.get(profile.samples[index]);
  total += delta;
  if (specialNames.has(node.callFrame.functionName)) {
    special.set(node.callFrame.functionName, (special.get(node.callFrame.functionName) ?? 0) + delta);
    continue;
  }
  const stack = stackOf(node.id);
  if (stackFilter && !stack.some((frame) => frame.callFrame.url.includes(stackFilter))) continue;
  kept += delta;
  self.set(label(node), (self.get(label(node)) ?? 0) + delta);
  const seen = new Set(stack.map(label));
  for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + delta);
  if (childrenOf) {
    // the stack runs from the sampled frame to the root: the outermost match is the last one
    const at = stack.findLastIndex((frame) => label(frame).includes(childrenOf));
    if (at >= 0) {
      const callee = at === 0 ? '(self)' : label(stack[at - 1]);
      children.set(callee, (children.get(callee) ?? 0) + delta);
    }
  }
}

const percent = (value, of) => `${((100 * value) / of).toFixed(1).padStart(5)} %`;
const print = (title, table) => {
  console.log(`\n${title}`);
  const rows = [...table].filter(([name]) => !match || name.includes(match));
  for (const [name, value] of rows.sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${percent(value, kept)}  ${(value / 1000).toFixed(0).padStart(7)} ms  ${name}`);
  }
};
const seconds = (clock / 1e6).toFixed(1);
console.log(
  `profile ${file} (${seconds} s long): ${(total / 1e6).toFixed(2)} s sampled, kept ${(kept / 1e6).toFixed(2)} s` +
    (stackFilter ? ` (stacks through "${stackFilter}")` : ''),
);
for (const [name, value] of special) console.log(`${percent(value, total)} of all  ${name}`);
print('self time (share of kept samples)', self);
print('inclusive time (share of kept samples)', inclusive);
if (childrenOf) print(`what "${childrenOf}" calls (share of kept samples)`, children);
