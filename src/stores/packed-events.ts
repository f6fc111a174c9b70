/**
 * Events of idle conversations as deflated JSON, for the memory tracker store: a ten-turn conversation
 * is about 190 event objects (some 64 KB of heap) but 36 KB of JSON, and a few KB deflated. The first
 * batch packed becomes a preset dictionary for the later ones, so a batch of one assistant's events
 * compresses to a fraction of what it would alone (the keys, flow ids and texts repeat across
 * conversations).
 *
 * The conversations that go idle together are deflated as one block: setting up a deflate stream
 * costs more than deflating a short conversation (on Node 20, ~40 of the ~50 µs a 7.5 KB conversation
 * took alone; ~12 µs each in a block of 16), and the block compresses better. Each conversation keeps
 * where its JSON lies in the block, so reading one inflates its block and parses only its part. A
 * block stays while any conversation packed in it is kept; blocks are bounded (MAX_BLOCK_BYTES) so that
 * one read never inflates much more than it needs.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Event } from '../core/events/types.js';

/** zlib looks back at most 32 KB; a longer dictionary only costs time */
const MAX_DICTIONARY_BYTES = 16 * 1024;
const LEVEL = 1;
/**
 * a block takes conversations until their JSON reaches this many bytes: ~17 of the A2A bench's
 * 2-turn conversations, 3–4 ten-turn ones; reading a packed part inflates at most this much (~0.2 ms)
 */
export const MAX_BLOCK_BYTES = 128 * 1024;

interface PackedBlock {
  readonly bytes: Buffer;
  readonly dictionary: Buffer | undefined;
}

export interface PackedEvents {
  readonly block: PackedBlock;
  /** where this conversation's JSON lies in the inflated block, in bytes */
  readonly start: number;
  readonly end: number;
  readonly count: number;
}

interface PendingPart {
  readonly json: Buffer;
  readonly count: number;
}

/** Events waiting to be packed together, added one conversation at a time. */
export class PackingBlock {
  readonly parts: PendingPart[] = [];
  private length = 0;

  /** the JSON bytes added so far */
  get bytes(): number {
    return this.length;
  }

  add(events: readonly Event[]): void {
    const json = Buffer.from(JSON.stringify(events));
    this.parts.push({ json, count: events.length });
    this.length += json.length;
  }
}

export class EventPacker {
  private dictionary: Buffer | undefined;

  /** Deflates the block's conversations together; answers each one's packed events, in order. */
  pack(block: PackingBlock): PackedEvents[] {
    const parts = block.parts;
    if (parts.length === 0) return [];
    const json =
      parts.length === 1 ? (parts[0] as PendingPart).json : Buffer.concat(parts.map((part) => part.json));
    const dictionary = this.dictionary;
    const deflated = deflateRawSync(json, dictionary ? { level: LEVEL, dictionary } : { level: LEVEL });
    // zlib's answer may be a view of a larger output chunk: keep a copy of just the bytes
    const packed: PackedBlock = { bytes: Buffer.from(deflated), dictionary };
    this.dictionary ??= Buffer.from(json.subarray(Math.max(0, json.length - MAX_DICTIONARY_BYTES)));
    let start = 0;
    return parts.map(({ json: part, count }) => {
      const end = start + part.length;
      const events: PackedEvents = { block: packed, start, end, count };
      start = end;
      return events;
    });
  }
}

export function unpack(packed: PackedEvents): Event[] {
  const { bytes, dictionary } = packed.block;
  const json = inflateRawSync(bytes, dictionary ? { dictionary } : {});
  return JSON.parse(json.toString('utf8', packed.start, packed.end)) as Event[];
}
