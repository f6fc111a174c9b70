/**
 * The few tar features a model archive needs: regular files with short names (POSIX ustar), so that
 * `tar -xzf model.tar.gz` shows what is inside, as for a Rasa archive. No dependency for this.
 */
export interface TarEntry {
  readonly name: string;
  readonly data: Uint8Array;
}

const BLOCK = 512;

export class TarError extends Error {}

export function writeTar(entries: readonly TarEntry[], mtimeSeconds: number): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(
      header(entry, mtimeSeconds),
      Buffer.from(entry.data),
      Buffer.alloc(padding(entry.data.length)),
    );
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

/**
 * The entries of a tar stream, in order. `bytes` may stop early (a prefix of the archive): the entries
 * that are complete are returned, which lets a reader look at the first file without the rest.
 */
export function readTar(bytes: Uint8Array, options: { partial?: boolean } = {}): TarEntry[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries: TarEntry[] = [];
  let at = 0;
  while (at + BLOCK <= buffer.length) {
    const block = buffer.subarray(at, at + BLOCK);
    if (block.every((byte) => byte === 0)) return entries;
    if (checksum(block) !== octal(block, 148, 8)) throw new TarError('a tar header has a wrong checksum');
    const size = octal(block, 124, 12);
    const start = at + BLOCK;
    if (start + size > buffer.length) {
      if (options.partial) return entries;
      throw new TarError('the tar stream is truncated');
    }
    const type = String.fromCharCode(block[156] ?? 0);
    if (type === '0' || type === '\0')
      entries.push({ name: text(block, 0, 100), data: buffer.subarray(start, start + size) });
    at = start + size + padding(size);
  }
  if (options.partial) return entries;
  throw new TarError('the tar stream has no end marker');
}

function header(entry: TarEntry, mtimeSeconds: number): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  if (name.length > 99) throw new TarError(`tar entry name too long: ${entry.name}`);
  const block = Buffer.alloc(BLOCK);
  name.copy(block, 0);
  block.write('0000644\0', 100, 'ascii');
  block.write('0000000\0', 108, 'ascii');
  block.write('0000000\0', 116, 'ascii');
  block.write(`${entry.data.length.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  block.write(`${Math.floor(mtimeSeconds).toString(8).padStart(11, '0')}\0`, 136, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\0' + '00', 257, 'ascii');
  block.write(`${checksum(block).toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** The header's byte sum with the checksum field itself counted as eight spaces. */
function checksum(block: Buffer): number {
  let sum = 0;
  for (let at = 0; at < BLOCK; at += 1) sum += at >= 148 && at < 156 ? 32 : (block[at] as number);
  return sum;
}

function octal(block: Buffer, start: number, length: number): number {
  const digits = text(block, start, length).trim();
  if (!/^[0-7]+$/.test(digits)) throw new TarError('a tar header has a malformed number');
  return parseInt(digits, 8);
}

function text(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}
