// 32-bit hashing of integers and strings: the bits the generator's randomness and the model's
// deterministic constraint names are both made from.

/** MurmurHash3's finaliser: a bijection of 32-bit integers with full avalanche. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** 32-bit hash of a string (FNV-1a over UTF-16 code units, then fmix32). */
export function hashString(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) | 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return fmix32(h ^ text.length);
}
