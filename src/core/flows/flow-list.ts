import type { Flow, Step } from './types.js';

/** The flows of an assistant, indexed by id, with their steps indexed by step id. */
export class FlowList {
  readonly flows: readonly Flow[];
  private readonly byId: ReadonlyMap<string, Flow>;
  private readonly stepsByFlow: ReadonlyMap<string, ReadonlyMap<string, Step>>;

  constructor(flows: readonly Flow[]) {
    this.flows = flows;
    this.byId = new Map(flows.map((flow) => [flow.id, flow]));
    this.stepsByFlow = new Map(flows.map((flow) => [flow.id, new Map(flow.steps.map((s) => [s.id, s]))]));
  }

  get(flowId: string): Flow | undefined {
    return this.byId.get(flowId);
  }

  has(flowId: string): boolean {
    return this.byId.has(flowId);
  }

  step(flowId: string, stepId: string): Step | undefined {
    return this.stepsByFlow.get(flowId)?.get(stepId);
  }

  get userFlows(): readonly Flow[] {
    return this.flows.filter((flow) => !flow.id.startsWith('pattern_'));
  }
}
