// Shards of a file generation (`sds generate --out … --shard i/n`): shard i of n writes rows
// ⌊N·(i−1)/n⌋ to ⌊N·i/n⌋ (exclusive) of every entity of N planned rows, into part files named
// `<name>.part-000i-of-000n.<extension>`. The rows are the one-process generation's, so the parts
// of all shards together hold every row once, in order: how they join depends on the format
// (FILE_FORMATS[format].parts, docs/files.md "Sharding").

/** Shard `index` (1 … count) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Shards at most: part names stay short, and a shard of fewer rows than this is no gain. */
export const MAX_SHARDS = 100_000;

/** `2/4` → shard 2 of 4; throws a message that says what `i/n` must be. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a shard: give i/n, shard i of n (e.g. 1/4 … 4/4)`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS) throw new Error(`"${text}": the number of shards must be 1 to ${MAX_SHARDS}`);
  if (index < 1 || index > count) throw new Error(`"${text}": shards are numbered 1 to ${count}`);
  return { index, count };
}

/** The rows `from` … `to` (exclusive) of `planned` rows shard `shard` writes. */
export function shardRows(planned: number, shard: Shard | undefined): { from: number; to: number } {
  if (!shard) return { from: 0, to: planned };
  return { from: Math.floor((planned * (shard.index - 1)) / shard.count), to: Math.floor((planned * shard.index) / shard.count) };
}

/**
 * A file's name in shard `shard`: `users.csv` → `users.part-0002-of-0004.csv` (numbers padded to four
 * digits or more, so that the parts sort in order by name); unchanged without a shard.
 */
export function partName(name: string, extension: string, shard: Shard | undefined): string {
  if (!shard) return `${name}.${extension}`;
  const width = Math.max(4, String(shard.count).length);
  return `${name}.part-${String(shard.index).padStart(width, '0')}-of-${String(shard.count).padStart(width, '0')}.${extension}`;
}
