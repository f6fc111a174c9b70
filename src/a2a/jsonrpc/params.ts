/** Small readers for JSON-RPC params shared by both wire versions; problems are INVALID_PARAMS. */
import { identifierProblem } from '../../core/text/identifiers.js';
import { invalidParams } from '../a2a-error.js';
import type { A2aMessage, Part } from '../tasks/model.js';

/**
 * Caps on the ids a caller chooses. A contextId becomes part of a conversation id
 * (`a2a:<caller>:<contextId>`, at most 255 characters in the tracker store), hence its lower cap.
 */
export const MAX_CONTEXT_ID_LENGTH = 128;
export const MAX_ID_LENGTH = 256;
/** `referenceTaskIds` of one message */
export const MAX_REFERENCED_TASKS = 32;

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function record(value: unknown, field: string): Json {
  if (!isRecord(value)) throw invalidParams(`${field} must be an object`, field);
  return value;
}

export function optionalRecord(value: unknown, field: string): Json | undefined {
  return value === undefined || value === null ? undefined : record(value, field);
}

export function text(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '')
    throw invalidParams(`${field} must be a non-empty string`, field);
  return value;
}

/** An optional id: absent, null and '' (what ts-proto clients send for unset) mean none. */
export function optionalText(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalidParams(`${field} must be a string`, field);
  return value;
}

/** A required id: text of at most `maxLength` characters without control or bidi characters. */
export function identifier(value: unknown, field: string, maxLength = MAX_ID_LENGTH): string {
  const id = text(value, field);
  const problem = identifierProblem(id, maxLength);
  if (problem) throw invalidParams(`${field} ${problem}`, field);
  return id;
}

/** An optional id (absent, null or ''), checked like `identifier` when given. */
export function optionalIdentifier(
  value: unknown,
  field: string,
  maxLength = MAX_ID_LENGTH,
): string | undefined {
  const id = optionalText(value, field);
  return id === undefined ? undefined : identifier(id, field, maxLength);
}

export function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidParams(`${field} must be true or false`, field);
  return value;
}

export function optionalCount(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw invalidParams(`${field} must be a whole number, not negative`, field);
  return value;
}

export function optionalStrings(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw invalidParams(`${field} must be a list of strings`, field);
  return value as string[];
}

/**
 * A client's message in either wire: the role must be the wire's user role, `parts` a non-empty list
 * read by the wire's part reader; empty metadata and reference lists are dropped.
 */
export function readUserMessage(
  value: unknown,
  wire: { readonly userRole: string; readonly readPart: (value: unknown, path: string) => Part },
): A2aMessage {
  const message = record(value, 'message');
  if (message['role'] !== wire.userRole)
    throw invalidParams(
      `message.role must be '${wire.userRole}': a client sends user messages`,
      'message.role',
    );
  const parts = message['parts'];
  if (!Array.isArray(parts) || parts.length === 0)
    throw invalidParams('message.parts must be a non-empty list', 'message.parts');
  const contextId = optionalIdentifier(message['contextId'], 'message.contextId', MAX_CONTEXT_ID_LENGTH);
  const taskId = optionalIdentifier(message['taskId'], 'message.taskId');
  const metadata = optionalRecord(message['metadata'], 'message.metadata');
  const references = referencedTasks(message['referenceTaskIds']);
  return {
    messageId: identifier(message['messageId'], 'message.messageId'),
    role: 'user',
    parts: parts.map((part, index) => wire.readPart(part, `message.parts[${index}]`)),
    ...(contextId ? { contextId } : {}),
    ...(taskId ? { taskId } : {}),
    ...(metadata && Object.keys(metadata).length > 0 ? { metadata } : {}),
    ...(references && references.length > 0 ? { referenceTaskIds: references } : {}),
  };
}

function referencedTasks(value: unknown): string[] | undefined {
  const field = 'message.referenceTaskIds';
  const ids = optionalStrings(value, field);
  if (ids && ids.length > MAX_REFERENCED_TASKS)
    throw invalidParams(`${field} may list at most ${MAX_REFERENCED_TASKS} tasks`, field);
  return ids?.map((id, index) => identifier(id, `${field}[${index}]`));
}
