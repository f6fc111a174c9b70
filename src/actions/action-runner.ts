import type { Assistant } from '../core/assistant.js';
import { HISTORY_BUILT_IN_ACTIONS, PURE_BUILT_IN_ACTIONS } from '../core/built-ins/index.js';
import type { ActionEffect, RuntimeBuiltInAction } from '../core/built-ins/types.js';
import { trackerToJson } from '../core/events/tracker-json.js';
import type { Event, UnstampedEvent } from '../core/events/types.js';
import type { ActionOutcome, ActionRequest, ActionRunner } from '../core/ports.js';
import { sessionStartEffects } from './session-start.js';
import type { CustomActionResult, CustomActionSource } from './custom/source.js';
import { ResponseRenderer, responseArguments } from './response-renderer.js';
import { responseName } from './action-server/action-result.js';
import type { ResponseSource } from './responses/response-source.js';

export interface DefaultActionRunnerOptions {
  readonly assistant: Assistant;
  /** tried in order for actions the domain declares (stubs, in-process actions, the action server) */
  readonly customActions: readonly CustomActionSource[];
  readonly random: () => number;
  /** where responses come from instead of the domain's templates (an NLG server) */
  readonly responses?: ResponseSource;
  /** built-ins that need more than the tracker (the knowledge search), run instead of the pure ones */
  readonly runtimeBuiltIns?: ReadonlyMap<string, RuntimeBuiltInAction>;
}

const UTTER_PREFIX = 'utter_';

/**
 * Runs every kind of action: a custom action the domain declares (which may override a built-in, as
 * Rasa allows), a built-in action, or a response.
 */
export class DefaultActionRunner implements ActionRunner {
  private readonly assistant: Assistant;
  private readonly sources: readonly CustomActionSource[];
  private readonly renderer: ResponseRenderer;
  private readonly responses: ResponseSource;
  private readonly runtimeBuiltIns: ReadonlyMap<string, RuntimeBuiltInAction>;
  /** responses come from an NLG server, which knows responses the domain does not define */
  private readonly responsesFromServer: boolean;

  constructor(options: DefaultActionRunnerOptions) {
    this.assistant = options.assistant;
    this.sources = options.customActions;
    this.runtimeBuiltIns = options.runtimeBuiltIns ?? new Map();
    this.renderer = new ResponseRenderer({ assistant: options.assistant, random: options.random });
    const renderer = this.renderer;
    this.responsesFromServer = options.responses !== undefined;
    this.responses = options.responses ?? {
      utter: async (name, request, kwargs) => renderer.utter(name, request, kwargs),
    };
  }

  async run(request: ActionRequest): Promise<ActionOutcome> {
    const name = request.actionName;
    try {
      // Rasa: a name with the utter_ prefix is always a response, also when `actions:` lists it (NLG servers)
      if (
        name.startsWith(UTTER_PREFIX) &&
        (this.responsesFromServer || this.assistant.domain.responses.has(name))
      )
        return ok(await this.responses.utter(name, request));
      if (this.assistant.domain.actions.has(name)) return await this.runCustom(request);
      const runtimeBuiltIn = this.runtimeBuiltIns.get(name);
      if (runtimeBuiltIn) return await this.fromEffects(await runtimeBuiltIn(request), request);
      const builtIn = PURE_BUILT_IN_ACTIONS.get(name);
      if (builtIn) {
        const input = { metadata: request.metadata ?? {} };
        return await this.fromEffects(builtIn(request.state, request.engine, input), request);
      }
      const historic = HISTORY_BUILT_IN_ACTIONS.get(name);
      if (historic) {
        const history = withoutOwnAction(await request.allEvents(), name);
        return await this.fromEffects(historic(request.state, request.engine, history), request);
      }
      if (name === 'action_session_start')
        return await this.fromEffects(sessionStartEffects(request.state, this.assistant), request);
      if (this.assistant.domain.responses.has(name)) return ok(await this.responses.utter(name, request));
      return failure('ACTION_UNKNOWN', `'${name}' is no response, declared action or built-in action.`);
    } catch (error) {
      const code =
        typeof (error as { code?: unknown }).code === 'string'
          ? String((error as { code: string }).code)
          : 'ACTION_FAILED';
      return failure(code, error instanceof Error ? error.message : String(error));
    }
  }

  private async runCustom(request: ActionRequest): Promise<ActionOutcome> {
    const name = request.actionName;
    const source = this.sources.find((candidate) => candidate.has(name));
    if (!source) {
      const fallback =
        name === 'action_session_start' ? sessionStartEffects(request.state, this.assistant) : undefined;
      if (fallback) return await this.fromEffects(fallback, request);
      return failure(
        'ACTION_NOT_IMPLEMENTED',
        `The custom action '${name}' has no implementation (no in-process action and no action server).`,
      );
    }
    const result = await source.run({
      actionName: name,
      conversationId: request.conversationId,
      state: request.state,
      allEvents: () => request.allEvents(),
      tracker: async () => trackerToJson(request.state, await request.allEvents(), { verbosity: 'ALL' }),
    });
    return ok(await this.fromCustomResult(result, request));
  }

  /** Rasa sends a custom action's messages first, then applies its events. */
  private async fromCustomResult(
    result: CustomActionResult,
    request: ActionRequest,
  ): Promise<UnstampedEvent[]> {
    const messages: UnstampedEvent[] = [];
    for (const response of result.responses) {
      const name = responseName(response);
      messages.push(
        ...(name && this.responsesFromServer
          ? await this.responses.utter(name, request, responseArguments(response))
          : this.renderer.fromActionResponse(response, request)),
      );
    }
    const events = result.events.map((event) =>
      event.event === 'slot' && !event.metadata?.['filled_by']
        ? { ...event, metadata: { ...event.metadata, filled_by: 'CUSTOM' } }
        : event,
    );
    return [...messages, ...events];
  }

  private async fromEffects(
    effects: readonly ActionEffect[],
    request: ActionRequest,
  ): Promise<ActionOutcome> {
    const events: UnstampedEvent[] = [];
    for (const effect of effects) {
      if (effect.kind === 'event') {
        events.push(effect.event);
      } else if (effect.kind === 'run') {
        // another action in place (Rasa's action_for_name_or_text: a project's override runs)
        const outcome = await this.run({ ...request, actionName: effect.action });
        if (!outcome.ok) return outcome;
        events.push(...outcome.events);
      } else if (
        !effect.optional ||
        this.responsesFromServer ||
        this.assistant.domain.responses.has(effect.response)
      ) {
        events.push(...(await this.responses.utter(effect.response, request, effect.kwargs)));
      }
    }
    return ok(events);
  }
}

/** The history as Rasa's tracker holds it while an action runs: without that action's own `action` event. */
function withoutOwnAction(events: readonly Event[], name: string): readonly Event[] {
  const last = events[events.length - 1];
  return last?.event === 'action' && last.name === name ? events.slice(0, -1) : events;
}

function ok(events: readonly UnstampedEvent[]): ActionOutcome {
  return { ok: true, events };
}

function failure(code: string, message: string): ActionOutcome {
  return { ok: false, code, message };
}
