// Entity and field ids from database names. A name that already is an sds identifier is kept as
// it is (so the smart defaults by name apply and generated tables get the same names); any other
// becomes the nearest identifier, unique ignoring case among its siblings.

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;
const MAX_LENGTH = 63;

/** Ids handed out in one scope (entities of a config, fields of an entity), compared ignoring case. */
export class IdScope {
  private readonly taken = new Set<string>();

  constructor(private readonly prefix: string) {}

  /** Reserves an id for `name`: the name itself when it is a free identifier, otherwise the nearest free one. */
  claim(name: string): string {
    let base = IDENTIFIER.test(name) && name.length <= MAX_LENGTH ? name : nearestIdentifier(name, this.prefix);
    let id = base;
    for (let n = 2; this.taken.has(id.toLowerCase()); n++) {
      const suffix = `_${n}`;
      base = base.slice(0, MAX_LENGTH - suffix.length);
      id = `${base}${suffix}`;
    }
    this.taken.add(id.toLowerCase());
    return id;
  }

  has(id: string): boolean {
    return this.taken.has(id.toLowerCase());
  }
}

/** `Order Items` → `Order_Items`, `Größe` → `Grosse`… `2fa` → `t_2fa`; at most 63 characters. */
function nearestIdentifier(name: string, prefix: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const started = /^[A-Za-z]/.test(ascii) ? ascii : `${prefix}_${ascii}`;
  return started.replace(/_+$/, '').slice(0, MAX_LENGTH) || prefix;
}
