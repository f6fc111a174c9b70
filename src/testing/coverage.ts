/**
 * Which steps and edges of each flow the e2e conversations went through. Read from the events the
 * engine records: every `stack` update says where each frame stands, `flow_completed` says a frame
 * reached its END. Steps the engine passes without recording anything between two updates (a noop, a
 * collect whose slot is already filled) are filled in along the shortest path of the flow graph
 * between the two recorded steps; action steps always pause, so such a path never crosses one.
 */
import { applyStackUpdate } from '../core/events/stack-update.js';
import type { Event } from '../core/events/types.js';
import type { FlowList } from '../core/flows/flow-list.js';
import { END_STEP, START_STEP } from '../core/flows/types.js';
import type { Flow } from '../core/flows/types.js';
import type { Stack } from '../core/stack/frames.js';
import { buildFlowGraph, edgeKey } from '../diagrams/index.js';
import type { FlowGraph } from '../diagrams/index.js';

export interface FlowReach {
  readonly reachedStepIds: ReadonlySet<string>;
  readonly reachedEdges: ReadonlySet<string>;
}

interface MutableReach {
  readonly reachedStepIds: Set<string>;
  readonly reachedEdges: Set<string>;
}

/** Collects reach over many conversations of one assistant. */
export class CoverageRecorder {
  private readonly reach = new Map<string, MutableReach>();
  private readonly graphs = new Map<string, FlowGraph>();

  constructor(private readonly flows: FlowList) {}

  /** Adds the path of one conversation (its whole event log). */
  record(events: readonly Event[]): void {
    let stack: Stack = [];
    const lastStep = new Map<string, { flowId: string; stepId: string }>();
    for (const event of events) {
      if (event.event === 'session_started' || event.event === 'restart') {
        stack = [];
        lastStep.clear();
      } else if (event.event === 'stack') {
        stack = applyStackUpdate(stack, event.update).stack;
        for (const frame of stack) this.moveFrame(lastStep, frame.frame_id, frame.flow_id, frame.step_id);
      } else if (event.event === 'flow_completed') {
        const frameId = endedFrame(lastStep, stack, event.flow_id);
        if (frameId !== undefined) this.moveFrame(lastStep, frameId, event.flow_id, event.step_id);
        if (frameId !== undefined) lastStep.delete(frameId);
        this.reachEnd(event.flow_id, event.step_id);
      }
    }
  }

  /** What was reached in a flow (empty sets for a flow no conversation entered). */
  reachOf(flowId: string): FlowReach {
    return this.reach.get(flowId) ?? { reachedStepIds: new Set(), reachedEdges: new Set() };
  }

  private moveFrame(
    lastStep: Map<string, { flowId: string; stepId: string }>,
    frameId: string,
    flowId: string,
    stepId: string,
  ): void {
    const flow = this.flows.get(flowId);
    if (!flow || (stepId !== START_STEP && !this.flows.step(flowId, stepId))) return;
    const previous = lastStep.get(frameId);
    lastStep.set(frameId, { flowId, stepId });
    if (previous?.flowId === flowId && previous.stepId === stepId) return;
    const reach = this.reachFor(flowId);
    reach.reachedStepIds.add(stepId);
    if (stepId === START_STEP) return;
    // A frame seen for the first time past its start came from START through the silent steps.
    this.addPath(flow, reach, previous?.flowId === flowId ? previous.stepId : START_STEP, stepId);
  }

  /** A flow that ends by a link hands over without passing its END, as its diagram draws it. */
  private reachEnd(flowId: string, fromStepId: string): void {
    const flow = this.flows.get(flowId);
    const from = this.flows.step(flowId, fromStepId);
    if (!flow || (fromStepId !== START_STEP && !from) || from?.kind === 'link') return;
    const reach = this.reachFor(flowId);
    reach.reachedStepIds.add(END_STEP);
    this.addPath(flow, reach, fromStepId, END_STEP);
  }

  private addPath(flow: Flow, reach: MutableReach, from: string, to: string): void {
    const path = shortestSilentPath(this.graphOf(flow), from, to);
    for (let index = 1; index < path.length; index++) {
      const step = path[index] as string;
      reach.reachedStepIds.add(step);
      reach.reachedEdges.add(edgeKey(path[index - 1] as string, step));
    }
    reach.reachedStepIds.add(from);
  }

  private reachFor(flowId: string): MutableReach {
    let reach = this.reach.get(flowId);
    if (!reach) {
      reach = { reachedStepIds: new Set(), reachedEdges: new Set() };
      this.reach.set(flowId, reach);
    }
    return reach;
  }

  private graphOf(flow: Flow): FlowGraph {
    let graph = this.graphs.get(flow.id);
    if (!graph) {
      graph = buildFlowGraph(flow);
      this.graphs.set(flow.id, graph);
    }
    return graph;
  }
}

/**
 * The frame a `flow_completed` closes: one of that flow seen before and no longer on the stack (the
 * engine pops it, and writes that, before it says the flow completed). Its last steps (a link, the
 * steps before it) may have run within the same stack update, unseen until now.
 */
function endedFrame(
  lastStep: ReadonlyMap<string, { flowId: string; stepId: string }>,
  stack: Stack,
  flowId: string,
): string | undefined {
  const onStack = new Set(stack.map((frame) => frame.frame_id));
  let found: string | undefined;
  for (const [frameId, last] of lastStep)
    if (last.flowId === flowId && !onStack.has(frameId)) found = frameId;
  return found;
}

/**
 * The shortest way from `from` to `to` in the flow graph whose inner steps could have run unrecorded
 * (not actions, which always pause); just `[from, to]` when there is none, so a move the graph does not
 * explain (a jump by a correction, a repeated question) still counts its two ends.
 */
export function shortestSilentPath(graph: FlowGraph, from: string, to: string): string[] {
  const kinds = new Map(graph.nodes.map((node) => [node.id, node.kind]));
  const next = new Map<string, string[]>();
  for (const edge of graph.edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const cameFrom = new Map<string, string>([[from, from]]);
  const queue = [from];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head] as string;
    for (const target of next.get(current) ?? []) {
      if (cameFrom.has(target)) continue;
      cameFrom.set(target, current);
      if (target === to) return unwind(cameFrom, from, to);
      if (kinds.get(target) !== 'action' && target !== END_STEP) queue.push(target);
    }
  }
  return [from, to];
}

function unwind(cameFrom: ReadonlyMap<string, string>, from: string, to: string): string[] {
  const path = [to];
  for (let current = to; current !== from;) {
    current = cameFrom.get(current) as string;
    path.unshift(current);
  }
  return path;
}
