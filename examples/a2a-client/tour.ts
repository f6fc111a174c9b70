/**
 * The tour both example clients take through the bundled assistant (Parley Bank), with the official
 * @a2a-js/sdk client: send, stream, get, cancel, and a data part that pre-fills slots. v1.ts and v03.ts
 * build the client, one per protocol version; the calls below are the same for both, since the SDK
 * translates its own types to the wire version of the interface it chose.
 */
import { Role, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import type { Message, Part, SendMessageRequest, Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';

function textPart(text: string): Part {
  return {
    content: { $case: 'text', value: text },
    mediaType: 'text/plain',
    filename: '',
    metadata: undefined,
  };
}

/** A DataPart: Parley reads `{slot: value}` as slot values, set after what the text says. */
function dataPart(data: Record<string, unknown>): Part {
  return {
    content: { $case: 'data', value: data },
    mediaType: 'application/json',
    filename: '',
    metadata: undefined,
  };
}

/** A user message; the SDK's types want every field, so the empty ones are spelt out. */
export function userMessage(parts: Part[], task?: Task): SendMessageRequest {
  const message: Message = {
    messageId: crypto.randomUUID(),
    role: Role.ROLE_USER,
    contextId: task?.contextId ?? '',
    taskId: task?.id ?? '',
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
    parts,
  };
  return { tenant: '', metadata: {}, configuration: undefined, message };
}

/** The structured part Parley adds to every status message: state, awaited slot, slots, results. */
export function dialogueData(task: Task): Record<string, unknown> {
  const part = task.status?.message?.parts.find((item) => item.content?.$case === 'data');
  return part?.content?.$case === 'data' ? (part.content.value as Record<string, unknown>) : {};
}

/** What the bot said in the turn: the text parts of the status message. */
export function botSaid(task: Task): string {
  return (task.status?.message?.parts ?? [])
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join(' / ')
    .replace(/\n/g, ' ');
}

function stateOf(task: Task): string {
  return taskStateToJSON(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
}

function asTask(result: Task | Message): Task {
  if (!('status' in result)) throw new Error('expected a task, got a message');
  return result;
}

function show(step: string, task: Task): void {
  const awaiting = dialogueData(task)['awaiting'] as { slot?: string } | undefined;
  const waitsFor = awaiting?.slot ? ` awaiting=${awaiting.slot}` : '';
  process.stdout.write(`${step}: ${stateOf(task)}${waitsFor} | ${botSaid(task)}\n`);
}

export async function tour(client: Client): Promise<void> {
  const card = await client.getAgentCard();
  process.stdout.write(`card: ${card.name}, skills: ${card.skills.map((skill) => skill.id).join(', ')}\n`);

  // 1. send: plain text starts the transfer_money flow; the data part pre-fills its recipient
  const started = asTask(
    await client.sendMessage(
      userMessage([textPart('I want to send money'), dataPart({ recipient: 'Alice' })]),
    ),
  );
  show('send', started);

  // 2. stream: the answer to the question continues the same task (its taskId and contextId)
  const events: string[] = [];
  for await (const event of client.sendMessageStream(
    userMessage([textPart('/SetSlots(amount=50)')], started),
  )) {
    const payload = event.payload;
    if (payload?.$case === 'statusUpdate')
      events.push(
        `status ${taskStateToJSON(payload.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)}`,
      );
    else events.push(String(payload?.$case));
  }
  process.stdout.write(`stream: ${events.join(', ')}\n`);

  // 3. get: the task as it is now
  const current = await client.getTask({ tenant: '', id: started.id, historyLength: 0 });
  show('get', current);

  // 4. cancel: the waiting task is canceled and its flow cancelled in the dialogue
  const canceled = await client.cancelTask({ tenant: '', id: started.id, metadata: {} });
  show('cancel', canceled);

  // 5. a data part that gives the flow all it needs: it completes in one turn, with its slots
  const balance = asTask(
    await client.sendMessage(
      userMessage([textPart('what is my balance?'), dataPart({ account_type: 'savings' })]),
    ),
  );
  show('send', balance);
  const completed = dialogueData(balance)['completed_flow'] as {
    flow_id: string;
    slots: Record<string, unknown>;
  };
  process.stdout.write(`completed_flow: ${completed.flow_id} ${JSON.stringify(completed.slots)}\n`);
}
