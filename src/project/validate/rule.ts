import type { Assistant } from '../../core/assistant.js';
import type { DiagnosticCode } from '../../core/diagnostic-codes.js';
import type { SourceRef } from '../../core/errors.js';
import type { Flow, Step } from '../../core/flows/types.js';
import type { ProjectDiagnostics } from '../diagnostics.js';
import type { LoadedProject } from '../load-project.js';

/** One validation check over the loaded model. Rules report; they never throw or stop the others. */
export interface ValidationRule {
  readonly name: string;
  check(context: RuleContext): void;
}

export class RuleContext {
  readonly project: LoadedProject;
  readonly assistant: Assistant;
  private readonly diagnostics: ProjectDiagnostics;

  constructor(options: { project: LoadedProject; diagnostics: ProjectDiagnostics }) {
    this.project = options.project;
    this.assistant = options.project.assistant;
    this.diagnostics = options.diagnostics;
  }

  report(
    code: DiagnosticCode,
    where: SourceRef | undefined,
    message: string,
    owner: { flowId?: string; stepId?: string; hint?: string } = {},
  ): void {
    this.diagnostics.at(code, where, message, owner);
  }

  reportStep(
    code: DiagnosticCode,
    flow: Flow,
    step: Step,
    message: string,
    where: SourceRef | undefined = step.source,
  ): void {
    this.diagnostics.at(code, where ?? flow.source, message, { flowId: flow.id, stepId: step.id });
  }

  /**
   * Whether the map at `path` of `file` lacks one of `keys` because its key was misspelt: the schema
   * check reported that already, so a rule does not report the key as missing as well.
   */
  isMisspelt(file: string | undefined, path: readonly (string | number)[], ...keys: string[]): boolean {
    return this.diagnostics.isMisspelt(file, path, keys);
  }

  /** Project flows only: the engine's default patterns are trusted and have no source positions. */
  get projectFlows(): readonly Flow[] {
    return this.assistant.flows.flows.filter((flow) => !flow.isDefault);
  }

  *projectSteps(): Generator<{ flow: Flow; step: Step }> {
    for (const flow of this.projectFlows) for (const step of flow.steps) yield { flow, step };
  }

  /**
   * Whether a response exists: in the domain, or, with an NLG server in endpoints.yml, as an `utter_`
   * name listed under `actions:` (the server provides its text, as in Rasa).
   */
  hasResponse(name: string): boolean {
    const { domain, endpoints } = this.assistant;
    if (domain.responses.has(name)) return true;
    const nlg = endpoints['nlg'];
    const nlgServer = typeof nlg === 'object' && nlg !== null && 'url' in nlg;
    return nlgServer && name.startsWith('utter_') && domain.actions.has(name);
  }

  /** Names an action step may use: responses, declared actions and the engine's built-in actions. */
  isKnownAction(name: string, builtIns: readonly string[]): boolean {
    const { domain } = this.assistant;
    return domain.responses.has(name) || domain.actions.has(name) || builtIns.includes(name);
  }
}
