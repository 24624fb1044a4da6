// fast-check arbitraries of hostile input: JSON body texts (wrong types, prototype keys, NUL bytes,
// unicode, huge and deeply nested), query-string pieces (broken percent-encoding, enormous numbers,
// bracket nesting, repeated and unknown parameters) and path segments (non-uuids, dot segments,
// encoded slashes, very long). Texts are built by hand so `__proto__` stays a plain JSON key.
import fc from 'fast-check';

/** Property names that reach Object.prototype when code merges or assigns carelessly. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'];

/** A property no operation accepts: a body carrying it can never be valid, so it can change nothing. */
export const POISON = '__fuzz';

/** Numbers as query or path text that overflow, underflow or are not numbers at all. */
export const HOSTILE_NUMBERS = [
  '1e309', '-1', '9007199254740993', '0', '-0', '1.5', 'NaN', 'Infinity', '-Infinity', '', '0x10', '%201', '1%2C2',
  '99999999999999999999999', '1e20', '2147483648', '-2147483649', '%E0%A4%A', '%00', '%D9%A1%D9%A2', 'true', '%5B%5D', '1e-400', '+5',
];

const STRINGS = [
  '\u0000', 'a\u0000b', '\ud800', '\udfff', '\u202e', '\ufeff', '\u0085', 'e\u0301', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '💩'.repeat(300), "'; DROP TABLE projects; --",
  '"', '\\', '%', '%00', '${7*7}', '{{constructor}}', 'null', 'true', '1e309', '-1', '9007199254740993', ' ', '', ...PROTO_KEYS,
];

/** Short hostile text (fits a URL). */
export const hostileShortString: fc.Arbitrary<string> = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...STRINGS));

/** Hostile text, now and then 5k to 200k characters long. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: hostileShortString },
  { weight: 1, arbitrary: fc.integer({ min: 5_000, max: 200_000 }).map((n) => 'x'.repeat(n)) },
);

/** Query or path text: short, and rarely long enough to pass Node's 16 KB request-line limit. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 20, arbitrary: hostileShortString },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 40_000 }).map((n) => 'x'.repeat(n)) },
);

/** encodeURIComponent that never throws: a lone surrogate goes out as the CESU-8 bytes a careless client would send. */
export function encodeHostile(text: string): string {
  const lone = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/;
  return text
    .split(lone)
    .map((part, index) => (index % 2 === 1 ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');
}

/** JSON text of an object from key and value texts (duplicates and `__proto__` kept as written). */
export function objectText(entries: [string, string][]): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
}

const rawNumbers = fc.constantFrom('1e309', '-1e309', '-0', '9007199254740993', '1e-400', '123456789012345678901234567890', '0.1', '-1', '2147483648');

/** JSON text of any value, hostile ones favoured. */
export const valueText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 3, arbitrary: hostileString.map((text) => JSON.stringify(text)) },
    { weight: 2, arbitrary: rawNumbers },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(fc.oneof(fc.constantFrom(...PROTO_KEYS), hostileString), tie('value')), { maxLength: 4 })
        .map((entries) => objectText(entries)),
    },
  ),
})).value;

/** Arrays or objects nested `depth` levels, one level per few bytes (1 MB holds ~500k levels). */
export function nestedText(depth: number, kind: 'array' | 'object', poison = true): string {
  const inner = kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return poison ? `{"${POISON}":1,"deep":${inner}}` : inner;
}

/** Bodies at and beyond the 1 MB limit: the largest deep nesting that fits, and a long string over it. */
export const OVERSIZED_AND_DEEP: [string, string][] = [
  ['arrays 10k deep', nestedText(10_000, 'array')],
  ['arrays 499k deep (just under 1 MB)', nestedText(499_000, 'array')],
  ['objects 5k deep', nestedText(5_000, 'object')],
  ['objects 170k deep (just under 1 MB)', nestedText(170_000, 'object')],
  ['a bare array 499k deep', nestedText(499_000, 'array', false)],
  ['arrays 600k deep (over 1 MB)', nestedText(600_000, 'array')],
  ['a 1.1 MB string', `{"${POISON}":"${'x'.repeat(1_100_000)}"}`],
  ['100k keys', objectText([[POISON, '1'], ...Array.from({ length: 100_000 }, (_, i): [string, string] => [`k${i}`, '1'])])],
  ['a 200k-item array', `[${Array.from({ length: 200_000 }, () => '0').join(',')}]`],
];

/** Text that is no JSON object at all, or no JSON. The empty body is left out: a JSON empty body is `{}`. */
export const notAnObjectText: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)).map((value) => JSON.stringify(value)),
  fc.constantFrom('{', '{"a":1,}', "{'a':1}", '{"a":1}}', '{"a":1} x', 'undefined', 'NaN', '\u0000', '{"a":"\\u00"}', '[', '{"__proto__":', '{"a":01}', '{"a":1e}', '   ', '\ufeff[]', '{"a":"\u0001"}'),
);

/**
 * Invalid bodies for a write operation: an object carrying POISON besides the operation's own
 * properties (`names`, and `extra` with values of their own), prototype keys and junk, or
 * something that is no object.
 */
export function invalidBody(names: string[], extra: [string, fc.Arbitrary<string>][] = []): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 3, arbitrary: names.length > 0 ? fc.constantFrom(...names) : fc.constant('name') },
    { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
    { weight: 1, arbitrary: hostileString },
  );
  const special = extra.map(([name, value]) => fc.option(value.map((text): [string, string] => [name, text]), { freq: 2 }));
  const entries = fc
    .tuple(fc.array(fc.tuple(key, valueText), { maxLength: 8 }), ...special)
    .map(([list, ...chosen]) => [...list, ...chosen.filter((entry): entry is [string, string] => entry !== null)]);
  return fc.oneof(
    { weight: 5, arbitrary: fc.tuple(entries, fc.nat()).map(([list, at]) => objectText(insertAt(list, at, [POISON, '1']))) },
    { weight: 2, arbitrary: notAnObjectText },
  );
}

function insertAt<T>(list: T[], at: number, item: T): T[] {
  const index = at % (list.length + 1);
  return [...list.slice(0, index), item, ...list.slice(index)];
}

/** Path segments that are no id of anything: random uuids, non-uuids, dot segments, encodings. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.uuid() },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '..', '.', '%2e%2e', '%2E%2E', '%2F', 'a%2Fb', '..%2F..%2F..%2Fetc%2Fpasswd', '%00', 'a%00b', 'null', 'undefined', '0', '-1', '1e309',
      '9007199254740993', '2147483648', 'NaN', '%E0%A4%A', '%', '%25', '%%', '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
      '{projectId}', ':id', '__proto__', 'constructor', 'prototype', '%C0%AE%C0%AE', '%ED%A0%80', '%F0%9F%92%A9', '%20', '+', '%3Fa%3D1', '%23x', ';a=1',
      'x'.repeat(5000), '%F0%9F%92%A9'.repeat(300), '1,2', '%5C%2C', 'users', 'posts', '*',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 64 }).map(encodeHostile) },
);

/** Query-string pieces nobody should send: broken encodings, prototype keys, deep brackets, repeats. */
export const hostileQueryPiece: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '%E0%A4%A', '%', '%zz=1', 'a=%', 'a=%E0%A4%A', '%ED%A0%80=1', '%C0%AE=1', '=', '==', '&&&', '=1', 'a=b=c', '%26=%3D', '+=+', '%00=%00',
    '__proto__=1', '__proto__[polluted]=1', 'constructor[prototype][polluted]=1', 'constructor=1', 'prototype=1', 'hasOwnProperty=1',
    'toString=1', 'valueOf=x', '__proto__.polluted=1', 'a[__proto__][b]=1', 'a[]=1&a[]=2', 'a[1000000]=1', 'a[-1]=1', 'a[]=', 'a[=1', 'a]=1',
  ),
  fc.integer({ min: 1, max: 300 }).map((depth) => `a${'[b]'.repeat(depth)}=1`),
  fc.tuple(fc.string({ unit: 'binary', maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 40 })).map(([key, value]) => `${encodeHostile(key)}=${encodeHostile(value)}`),
);

/** `name=<hostile number>`, sometimes repeated or bracketed. */
export function hostileNumberParam(name: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS).map((value) => `${name}=${value}`) },
    { weight: 1, arbitrary: fc.constantFrom(`${name}=1&${name}=2`, `${name}[]=1`, `${name}[a]=1`, `${name}[__proto__]=1`, `${name}`, `${name}.x=1`) },
  );
}
