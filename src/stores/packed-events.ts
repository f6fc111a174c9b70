/**
 * Events of an idle conversation as deflated JSON, for the memory tracker store: a ten-turn conversation
 * is about 190 event objects (some 64 KB of heap) but 36 KB of JSON, and a few KB deflated. The first
 * batch packed becomes a preset dictionary for the later ones, so a batch of one assistant's events
 * compresses to a fraction of what it would alone (the keys, flow ids and texts repeat across
 * conversations).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Event } from '../core/events/types.js';

/** zlib looks back at most 32 KB; a longer dictionary only costs time */
const MAX_DICTIONARY_BYTES = 16 * 1024;
const LEVEL = 1;

export interface PackedEvents {
  readonly bytes: Buffer;
  readonly count: number;
  readonly dictionary: Buffer | undefined;
}

export class EventPacker {
  private dictionary: Buffer | undefined;

  pack(events: readonly Event[]): PackedEvents {
    const json = Buffer.from(JSON.stringify(events));
    const dictionary = this.dictionary;
    const deflated = deflateRawSync(json, dictionary ? { level: LEVEL, dictionary } : { level: LEVEL });
    // zlib's answer is a view of its 16 KB output chunk: keep a copy of just the bytes
    const bytes = Buffer.from(deflated);
    this.dictionary ??= Buffer.from(json.subarray(Math.max(0, json.length - MAX_DICTIONARY_BYTES)));
    return { bytes, count: events.length, dictionary };
  }
}

export function unpack(packed: PackedEvents): Event[] {
  const { bytes, dictionary } = packed;
  const json = inflateRawSync(bytes, dictionary ? { dictionary } : {});
  return JSON.parse(json.toString()) as Event[];
}
