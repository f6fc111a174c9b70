import type { ActionStub } from '../actions/custom/stub-source.js';
import { parseCommand } from '../core/commands/index.js';
import type { Command } from '../core/commands/types.js';
import type { Event } from '../core/events/types.js';
import type { Agent } from '../runtime/agent.js';
import type {
  ConversationDriver,
  DriverFactory,
  DriverMessage,
  DriverStartOptions,
} from '../testing/driver.js';

/** Drives the in-process agent for e2e tests: one fresh agent (with the case's stubs) per test case. */
export class AgentDriverFactory implements DriverFactory {
  private readonly createAgent: (stubs: ReadonlyMap<string, ActionStub>) => Promise<Agent>;

  constructor(options: { createAgent: (stubs: ReadonlyMap<string, ActionStub>) => Promise<Agent> }) {
    this.createAgent = options.createAgent;
  }

  async start(options: DriverStartOptions): Promise<ConversationDriver> {
    const agent = await this.createAgent(options.stubs);
    const driver = new AgentDriver({ agent, conversationId: options.conversationId });
    await driver.startSession();
    return driver;
  }
}

class AgentDriver implements ConversationDriver {
  private readonly agent: Agent;
  private readonly conversationId: string;
  private readonly events: Event[] = [];

  constructor(options: { agent: Agent; conversationId: string }) {
    this.agent = options.agent;
    this.conversationId = options.conversationId;
  }

  async startSession(): Promise<void> {
    const result = await this.agent.appendEvents(this.conversationId, []);
    this.events.push(...result.events);
  }

  async sendMessage(input: DriverMessage): Promise<readonly Event[]> {
    const commands = input.commands
      ?.map(parseCommand)
      .filter((command): command is Command => command !== undefined);
    const result = await this.agent.handleMessage({
      conversationId: this.conversationId,
      text: input.text,
      ...(input.metadata ? { metadata: input.metadata } : {}),
      ...(commands ? { commands } : {}),
    });
    this.events.push(...result.events);
    return result.events;
  }

  async setSlots(slots: Readonly<Record<string, unknown>>): Promise<void> {
    const events = Object.entries(slots).map(([name, value]) => ({ event: 'slot' as const, name, value }));
    const result = await this.agent.appendEvents(this.conversationId, events);
    this.events.push(...result.events);
  }

  transcript(): readonly Event[] {
    return this.events;
  }
}
