import type { Branch, CallStep, NextLink, Rejection, Step, ToolCall } from '../../core/flows/types.js';
import { END_STEP } from '../../core/flows/types.js';
import type { PathSegment } from '../load/yaml-file.js';
import { buildCondition } from './conditions.js';
import { asBoolean, asString, isRecord, sourceAt } from './context.js';
import type { SourceContext } from './context.js';

const STEP_KINDS = ['action', 'collect', 'set_slots', 'link', 'call', 'noop'] as const;
type RawKind = (typeof STEP_KINDS)[number];

/** A step of the YAML tree with its id assigned; pass 1 of flow normalisation. */
interface StepNode {
  readonly raw: Record<string, unknown>;
  readonly kind: RawKind;
  readonly path: readonly PathSegment[];
  readonly id: string;
  readonly hasCustomId: boolean;
  /** nested sequences under `next` branches, by branch index */
  readonly branchSequences: ReadonlyMap<number, readonly StepNode[]>;
}

interface Walk {
  readonly flowId: string;
  readonly context: SourceContext;
  nextIndex: number;
}

/**
 * Turns a flow's YAML steps into Rasa's flat step list: ids are `{flow}_{idx}_{kind}` where idx counts
 * steps in depth-first pre-order (a step, the steps nested in its branches, then the next sibling).
 */
export function buildSteps(
  flowId: string,
  rawSteps: readonly unknown[],
  context: SourceContext,
  path: PathSegment[],
): Step[] {
  const walk: Walk = { flowId, context, nextIndex: 0 };
  const root = assignIds(rawSteps, path, walk);
  const steps: Step[] = [];
  emitSequence(root, true, walk, steps);
  return steps;
}

function assignIds(rawSteps: readonly unknown[], path: readonly PathSegment[], walk: Walk): StepNode[] {
  const nodes: StepNode[] = [];
  rawSteps.forEach((raw, index) => {
    const stepPath = [...path, index];
    const idx = walk.nextIndex++;
    if (!isRecord(raw)) return;
    const kind = STEP_KINDS.find((candidate) => candidate in raw);
    if (kind === undefined) return;
    const customId = asString(raw['id']);
    const id = customId ?? `${walk.flowId}_${idx}_${idPostfix(kind, raw)}`;
    const branchSequences = new Map<number, StepNode[]>();
    const next = raw['next'];
    if (Array.isArray(next)) {
      next.forEach((branch, branchIndex) => {
        const target = isRecord(branch) ? (branch['then'] ?? branch['else']) : undefined;
        const key = isRecord(branch) && 'then' in branch ? 'then' : 'else';
        if (Array.isArray(target)) {
          branchSequences.set(branchIndex, assignIds(target, [...stepPath, 'next', branchIndex, key], walk));
        }
      });
    }
    nodes.push({ raw, kind, path: stepPath, id, hasCustomId: customId !== undefined, branchSequences });
  });
  return nodes;
}

function idPostfix(kind: RawKind, raw: Record<string, unknown>): string {
  switch (kind) {
    case 'action':
      return String(raw['action']);
    case 'collect':
      return `collect_${String(raw['collect'])}`;
    case 'link':
      return `link_${String(raw['link'])}`;
    case 'call':
      return `call_${String(raw['call'])}`;
    case 'set_slots':
      return 'set_slots';
    case 'noop':
      return 'noop';
  }
}

function emitSequence(nodes: readonly StepNode[], isRoot: boolean, walk: Walk, out: Step[]): void {
  nodes.forEach((node, index) => {
    const following = nodes[index + 1];
    out.push(buildStep(node, defaultNext(node, following, isRoot, walk), walk));
    node.branchSequences.forEach((sequence) => emitSequence(sequence, false, walk, out));
  });
}

function defaultNext(node: StepNode, following: StepNode | undefined, isRoot: boolean, walk: Walk): NextLink {
  const where = sourceAt(walk.context, node.path);
  const owner = { flowId: walk.flowId, stepId: node.id };
  if (node.kind === 'link') {
    if ('next' in node.raw) {
      walk.context.diagnostics.at(
        'LINK_NOT_LAST',
        where,
        `Link step '${node.id}' has a 'next', but a link ends its flow.`,
        owner,
      );
    }
    return { kind: 'none' };
  }
  if ('next' in node.raw) return explicitNext(node, walk);
  if (following) return { kind: 'step', target: following.id };
  if (isRoot) return { kind: 'end' };
  walk.context.diagnostics.at(
    'STEP_MISSING_NEXT',
    where,
    `Step '${node.id}' is the last step of a branch but has no 'next'.`,
    owner,
  );
  return { kind: 'none' };
}

function explicitNext(node: StepNode, walk: Walk): NextLink {
  const next = node.raw['next'];
  if (typeof next === 'string') return next === END_STEP ? { kind: 'end' } : { kind: 'step', target: next };
  if (!Array.isArray(next)) return { kind: 'none' };
  const branches: Branch[] = [];
  next.forEach((raw, index) => {
    if (!isRecord(raw)) return;
    const branch = buildBranch(node, raw, index, walk);
    if (branch) branches.push(branch);
  });
  checkElse(node, next, walk);
  return { kind: 'branches', branches };
}

function buildBranch(
  node: StepNode,
  raw: Record<string, unknown>,
  index: number,
  walk: Walk,
): Branch | undefined {
  const isElse = !('if' in raw);
  const key = isElse ? 'else' : 'then';
  const path = [...node.path, 'next', index];
  const target = raw[key];
  const owner = { flowId: walk.flowId, stepId: node.id };
  // an empty list of steps has no first step; the schema check reports it (STEP_EMPTY_SEQUENCE)
  const targetId = typeof target === 'string' ? target : node.branchSequences.get(index)?.[0]?.id;
  if (targetId === undefined) return undefined;
  const condition = isElse ? undefined : buildCondition(raw['if'], walk.context, [...path, 'if'], owner);
  const source = sourceAt(walk.context, path);
  return { condition, target: targetId, ...(source ? { source } : {}) };
}

function checkElse(node: StepNode, next: readonly unknown[], walk: Walk): void {
  const elseIndex = next.findIndex((branch) => isRecord(branch) && !('if' in branch));
  const owner = { flowId: walk.flowId, stepId: node.id };
  if (elseIndex === -1) {
    walk.context.diagnostics.at(
      'BRANCH_MISSING_ELSE',
      sourceAt(walk.context, [...node.path, 'next']),
      `The branches of step '${node.id}' have no 'else'.`,
      owner,
    );
  } else if (elseIndex !== next.length - 1) {
    walk.context.diagnostics.at(
      'BRANCH_ELSE_NOT_LAST',
      sourceAt(walk.context, [...node.path, 'next', elseIndex + 1]),
      `Step '${node.id}' has branches after its 'else'.`,
      owner,
    );
  }
}

function buildStep(node: StepNode, next: NextLink, walk: Walk): Step {
  const { raw } = node;
  const source = sourceAt(walk.context, node.path);
  const description = asString(raw['description']);
  const base = {
    id: node.id,
    hasCustomId: node.hasCustomId,
    next,
    metadata: isRecord(raw['metadata']) ? raw['metadata'] : {},
    ...(description === undefined ? {} : { description }),
    ...(source ? { source } : {}),
  };
  switch (node.kind) {
    case 'action':
      return { ...base, kind: 'action', action: String(raw['action']) };
    case 'collect':
      return buildCollect(base, node, walk);
    case 'set_slots':
      return { ...base, kind: 'set_slots', slots: slotAssignments(raw['set_slots']) };
    case 'link':
      return { ...base, kind: 'link', link: String(raw['link']) };
    case 'call':
      return { ...base, kind: 'call', call: String(raw['call']), ...calleeOf(raw) };
    case 'noop':
      return { ...base, kind: 'noop' };
  }
}

function buildCollect(base: Omit<Step, 'kind'>, node: StepNode, walk: Walk): Step {
  const slot = String(node.raw['collect']);
  const rawRejections = Array.isArray(node.raw['rejections']) ? node.raw['rejections'] : [];
  const rejections: Rejection[] = rawRejections.filter(isRecord).map((raw, index) => ({
    condition: buildCondition(raw['if'], walk.context, [...node.path, 'rejections', index, 'if'], {
      flowId: walk.flowId,
      stepId: node.id,
    }),
    utter: String(raw['utter']),
  }));
  return {
    ...base,
    kind: 'collect',
    collect: slot,
    utter: asString(node.raw['utter']) ?? `utter_ask_${slot}`,
    collectAction: `action_ask_${slot}`,
    askBeforeFilling: asBoolean(node.raw['ask_before_filling'], false),
    resetAfterFlowEnds: asBoolean(node.raw['reset_after_flow_ends'], true),
    rejections,
    forceSlotFilling: asBoolean(node.raw['force_slot_filling'], false),
  };
}

function slotAssignments(raw: unknown): { name: string; value: unknown }[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter(isRecord)
    .flatMap((entry) => Object.entries(entry).map(([name, value]) => ({ name, value })));
}

function calleeOf(raw: Record<string, unknown>): Pick<CallStep, 'callee' | 'tool' | 'exitIf'> {
  if (raw['mcp_server'] !== undefined) {
    const tool = toolCallOf(raw['mcp_server'], raw['mapping']);
    return tool ? { callee: 'mcp_tool', tool } : { callee: 'mcp_tool' };
  }
  const exitIf = raw['exit_if'];
  return exitIf !== undefined
    ? { callee: 'agent', exitIf: Array.isArray(exitIf) ? exitIf.map(String) : [String(exitIf)] }
    : {};
}

/** Rasa needs both lists of a mapping; without them the step is reported, not run */
function toolCallOf(server: unknown, mapping: unknown): ToolCall | undefined {
  if (typeof server !== 'string' || !isRecord(mapping)) return undefined;
  const { input, output } = mapping;
  if (!Array.isArray(input) || !Array.isArray(output)) return undefined;
  return {
    server,
    input: input
      .filter(isRecord)
      .map((entry) => ({ param: String(entry['param']), slot: String(entry['slot']) })),
    output: output
      .filter(isRecord)
      .map((entry) => ({ slot: String(entry['slot']), value: String(entry['value']) })),
  };
}
