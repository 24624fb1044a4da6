// Machine-made values from the PRNG alone: version-4 uuids (distinct by construction: their first
// 32 bits are a bijection of the row), hex tokens, IPv4 addresses and small JSON objects.
import type { ValueProgram } from '../program.ts';
import type { RandomCursor, RandomStream } from '../random.ts';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex32(word: number): string {
  return HEX[word >>> 24]! + HEX[(word >>> 16) & 255]! + HEX[(word >>> 8) & 255]! + HEX[word & 255]!;
}

/** Uuid v4 layout from four random words; the first word alone tells rows apart. */
export function uuidProgram(stream: RandomStream): ValueProgram {
  return {
    at: (row, _values, attempt) => {
      const draw = attempt * 4;
      const w0 = stream.u32(row, draw);
      const w1 = ((stream.u32(row, draw + 1) & 0xffff0fff) | 0x00004000) >>> 0;
      const w2 = ((stream.u32(row, draw + 2) & 0x3fffffff) | 0x80000000) >>> 0;
      const w3 = stream.u32(row, draw + 3);
      const a = hex32(w1);
      const b = hex32(w2);
      return `${hex32(w0)}-${a.slice(0, 4)}-${a.slice(4)}-${b.slice(0, 4)}-${b.slice(4)}${hex32(w3)}`;
    },
    typed: true,
    distinct: true,
  };
}

/** `length` lower-case hex digits (tokens, hashes). */
export function hexText(cursor: RandomCursor, length: number): string {
  let text = '';
  while (text.length < length) text += hex32(cursor.u32());
  return text.slice(0, length);
}

export function ipv4Text(cursor: RandomCursor): string {
  return `${cursor.int(1, 223)}.${cursor.int(0, 255)}.${cursor.int(0, 255)}.${cursor.int(1, 254)}`;
}

const JSON_TAGS = ['alpha', 'beta', 'gamma', 'delta', 'stable', 'preview'];

/** A small JSON object, e.g. {"id": 42, "tag": "beta", "active": true, "score": 0.37}. */
export function jsonObject(cursor: RandomCursor): Record<string, unknown> {
  return {
    id: cursor.int(1, 100_000),
    tag: cursor.pick(JSON_TAGS),
    active: cursor.chance(0.5),
    score: Math.round(cursor.float() * 100) / 100,
  };
}
