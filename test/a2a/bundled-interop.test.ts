/**
 * Interop with the bundled assistant (the repo root project, as shipped: include_conversation_repair
 * false): the official @a2a-js/sdk client, v1.0 natively and v0.3 through its legacy mode, reads the
 * card and drives the transfer_money flow from input-required to completed. The NLU model is trained
 * once into a temp folder so that the run leaves the repo's models/ folder alone.
 */
import { Role, TaskState } from '@a2a-js/sdk';
import type { AgentCard, Message, SendMessageRequest, Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import type { Client } from '@a2a-js/sdk/client';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fingerprintProject } from '../../src/cli/model-archive.js';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { trainModel } from '../../src/cli/train-model.js';
import { loadProject } from '../../src/project/load-project.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { PARLEY_VERSION } from '../../src/version.js';

function request(text: string, extra: Partial<Message> = {}): SendMessageRequest {
  return {
    tenant: '',
    metadata: {},
    configuration: undefined,
    message: {
      messageId: crypto.randomUUID(),
      role: Role.ROLE_USER,
      contextId: '',
      taskId: '',
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
      ...extra,
      parts: [
        {
          content: { $case: 'text', value: text },
          mediaType: 'text/plain',
          filename: '',
          metadata: undefined,
        },
      ],
    },
  };
}

function dataOf(task: Task): Record<string, unknown> {
  const part = task.status?.message?.parts.find((item) => item.content?.$case === 'data');
  return (part?.content?.$case === 'data' ? part.content.value : {}) as Record<string, unknown>;
}

/** the bot's messages of the turn, as the text part(s) of the status message */
function saidIn(task: Task): string {
  return (task.status?.message?.parts ?? [])
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join('\n');
}

/** The v1.0 card narrowed to its v0.3 interface, read by the client in legacy mode (as rpc.test.ts does). */
async function legacyClient(base: string): Promise<Client> {
  const card = (await (
    await fetch(`${base}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })
  ).json()) as { supportedInterfaces: { protocolVersion: string }[] };
  card.supportedInterfaces = card.supportedInterfaces.filter((item) => item.protocolVersion === '0.3');
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
    }),
  );
  return factory.createFromAgentCard(card as never);
}

describe('A2A interop with the bundled assistant', function () {
  this.timeout(120_000);
  let server: ParleyServer;
  let folder: string;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'parley-a2a-bundled-'));
    const { project } = loadProject({ project: '.' });
    const trained = trainModel({
      project,
      fingerprint: fingerprintProject(project.files, {
        parleyVersion: PARLEY_VERSION,
        rasaVersion: project.assistant.config.rasaVersion,
      }),
      out: folder,
    });
    server = await startServer({
      location: { project: '.' },
      projectRoot: '.',
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      trackerStore: new MemoryTrackerStore(),
      lockStore: new MemoryLockStore(),
      modelPath: trained.path,
      env: {},
    });
  });
  after(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('the official client reads the card: the bundled skills, streaming, no repair skills', async () => {
    const client = await new ClientFactory().createFromUrl(server.baseUrl);
    const card: AgentCard = await client.getAgentCard();
    expect(card.name).to.equal('Parley Bank');
    expect(card.capabilities?.streaming).to.equal(true);
    const skills = card.skills.map((skill) => skill.id);
    expect(skills).to.include.members(['transfer_money', 'check_balance', 'block_card']);
    expect(skills.filter((id) => id.startsWith('pattern_'))).to.deep.equal([]);
  });

  for (const wire of ['v0.3', 'v1.0'] as const) {
    it(`${wire}: a transfer in plain text and payloads goes input-required → completed with the slots`, async () => {
      const client =
        wire === 'v0.3'
          ? await legacyClient(server.baseUrl)
          : await new ClientFactory().createFromUrl(server.baseUrl);
      const first = (await client.sendMessage(request('I want to send money'))) as Task;
      expect(first.status?.state).to.equal(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(dataOf(first)).to.deep.include({ active_flow: 'transfer_money' });
      expect(dataOf(first)['awaiting']).to.deep.include({ slot: 'recipient', flow_id: 'transfer_money' });
      const next = async (text: string): Promise<Task> =>
        (await client.sendMessage(request(text, { contextId: first.contextId }))) as Task;

      const second = await next('/SetSlots(recipient=Alice)');
      expect(second.status?.state).to.equal(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(dataOf(second)['awaiting']).to.deep.include({ slot: 'amount' });
      expect(saidIn(second)).to.include('How much would you like to send to Alice?');

      const third = await next('/SetSlots(amount=50)');
      expect(third.status?.state).to.equal(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(dataOf(third)['awaiting']).to.deep.include({ slot: 'transfer_confirmation' });
      expect(saidIn(third)).to.include('Please confirm: send $50.0 to Alice?');

      const last = await next('/SetSlots(transfer_confirmation=true)');
      expect(last.status?.state).to.equal(TaskState.TASK_STATE_COMPLETED);
      expect(last.contextId).to.equal(first.contextId);
      const completed = dataOf(last)['completed_flow'] as { flow_id: string; slots: Record<string, unknown> };
      expect(completed.flow_id).to.equal('transfer_money');
      expect(completed.slots).to.deep.include({
        recipient: 'Alice',
        amount: 50,
        transfer_confirmation: true,
        transfer_status: 'completed',
      });
      expect(String(completed.slots['transfer_reference'])).to.match(/^PB-\d+$/);
      expect(saidIn(last)).to.include('Done! $50.0 is on its way to Alice.');
    });
  }
});
