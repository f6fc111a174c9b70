/** Small readers for JSON-RPC params shared by both wire versions; problems are INVALID_PARAMS. */
import { invalidParams } from '../a2a-error.js';
import type { A2aMessage, Part } from '../tasks/model.js';

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
  const contextId = optionalText(message['contextId'], 'message.contextId');
  const taskId = optionalText(message['taskId'], 'message.taskId');
  const metadata = optionalRecord(message['metadata'], 'message.metadata');
  const references = optionalStrings(message['referenceTaskIds'], 'message.referenceTaskIds');
  return {
    messageId: text(message['messageId'], 'message.messageId'),
    role: 'user',
    parts: parts.map((part, index) => wire.readPart(part, `message.parts[${index}]`)),
    ...(contextId ? { contextId } : {}),
    ...(taskId ? { taskId } : {}),
    ...(metadata && Object.keys(metadata).length > 0 ? { metadata } : {}),
    ...(references && references.length > 0 ? { referenceTaskIds: references } : {}),
  };
}
