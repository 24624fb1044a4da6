// Lifecycles of generator version 4: what a date or datetime column is in the life of its row, read
// from the words of its name (a small vocabulary of stages with an order: born < created < ordered <
// paid < shipped < delivered, issued < due, rented < returned, hired < terminated, start < end…).
// From it: the earlier columns of the same row it follows, the status column whose values imply it
// (`paid_at` only on paid rows), the parents whose created time it follows (every reference), and
// the window of its values (birth dates decades back, activity over recent years, past tense never
// after the reference date). The makers are lifecycle-makers.ts; the report checks the same facts.
import type { Entity, Field, FieldType } from '../../model/config-types.ts';
import { referenceTarget } from '../../model/table-spec.ts';
import { idWords } from './field-rule.ts';
import { statusSetOf } from './status-values.ts';

const DATES: FieldType[] = ['date', 'datetime'];
const YEAR_DAYS = 365.25;

/** How the values of a stage with no earlier column are drawn. */
export type StageWindow = 'birth' | 'founded' | 'activity' | 'future';

export interface Stage {
  id: string;
  /** Words of a column name (or status value) that mean the stage: `rental_date` → rented. */
  words: readonly string[];
  window: StageWindow;
  /** Days after the latest earlier column of the row, drawn short-biased (shipping follows an order by days); without: its own window, kept after the earlier ones. */
  gap?: readonly [number, number];
  /** Years back its own window reaches (activity: 5). */
  spanYears?: number;
  /** At least this many days after an earlier `born` column (hired 16 years after birth). */
  afterBirthDays?: number;
}

/** Every stage, in the order of a life: a stage may follow only stages listed before it. */
export const STAGES: readonly Stage[] = [
  { id: 'born', words: ['born', 'birth', 'birthdate', 'birthday', 'dob'], window: 'birth' },
  { id: 'founded', words: ['founded', 'founding', 'foundation', 'established', 'establishment', 'incorporated', 'incorporation'], window: 'founded' },
  { id: 'created', words: ['created', 'create', 'creation', 'inserted', 'insert', 'added', 'registered', 'register', 'registration', 'signup', 'joined', 'join', 'enrolled', 'enroll', 'enrollment'], window: 'activity' },
  { id: 'requested', words: ['requested', 'request', 'submitted', 'submit', 'submission', 'reported', 'report', 'raised', 'applied', 'application'], window: 'activity' },
  { id: 'ordered', words: ['ordered', 'order', 'placed', 'purchased', 'purchase', 'booked', 'book', 'booking', 'reserved', 'reserve', 'reservation'], window: 'activity' },
  { id: 'issued', words: ['issued', 'issue', 'invoiced', 'invoice', 'billed', 'bill', 'billing', 'sent'], window: 'activity' },
  { id: 'rented', words: ['rented', 'rent', 'rental', 'borrowed', 'borrow', 'loaned', 'loan'], window: 'activity' },
  { id: 'hired', words: ['hired', 'hire', 'employed', 'employment'], window: 'activity', spanYears: 20, afterBirthDays: 16 * YEAR_DAYS },
  { id: 'approved', words: ['approved', 'approve', 'approval', 'accepted', 'accept', 'acceptance', 'confirmed', 'confirm', 'confirmation', 'assigned'], window: 'activity', gap: [0, 7] },
  { id: 'started', words: ['start', 'started', 'starts', 'begin', 'began', 'beginning', 'from', 'opened', 'open', 'opening', 'checkin', 'effective', 'activated', 'activation', 'commenced'], window: 'activity' },
  { id: 'paid', words: ['paid', 'pay', 'payment', 'settled', 'settlement'], window: 'activity', gap: [0, 30] },
  { id: 'shipped', words: ['shipped', 'ship', 'shipment', 'shipping', 'dispatched', 'dispatch', 'transit'], window: 'activity', gap: [0, 5] },
  { id: 'delivered', words: ['delivered', 'deliver', 'delivery', 'received', 'receipt', 'arrived', 'arrival', 'fulfilled', 'fulfillment'], window: 'activity', gap: [1, 10] },
  { id: 'due', words: ['due', 'deadline'], window: 'future', gap: [3, 45] },
  { id: 'returned', words: ['returned', 'return'], window: 'activity', gap: [1, 21] },
  { id: 'resolved', words: ['resolved', 'resolve', 'resolution', 'fixed'], window: 'activity', gap: [0, 30] },
  { id: 'ended', words: ['end', 'ended', 'ends', 'ending', 'finish', 'finished', 'completed', 'complete', 'completion', 'graduated', 'graduation', 'closed', 'close', 'closing', 'to', 'until', 'checkout', 'expired', 'expiry', 'expiration', 'expires'], window: 'future', gap: [1, 365] },
  { id: 'terminated', words: ['terminated', 'terminate', 'termination', 'resigned', 'resignation', 'fired', 'departed', 'departure', 'separation'], window: 'activity', gap: [30, 3650] },
  { id: 'cancelled', words: ['cancelled', 'canceled', 'cancel', 'cancellation', 'voided', 'void', 'rejected', 'reject', 'rejection'], window: 'activity', gap: [0, 30] },
  { id: 'refunded', words: ['refunded', 'refund', 'chargeback', 'reimbursed'], window: 'activity', gap: [1, 60] },
  { id: 'updated', words: ['updated', 'update', 'modified', 'modify', 'modification', 'edited', 'edit', 'changed'], window: 'activity' },
  { id: 'deleted', words: ['deleted', 'delete', 'deletion', 'removed', 'archived'], window: 'activity' },
  { id: 'died', words: ['died', 'death', 'deceased'], window: 'activity' },
];

/**
 * Stages that follow each other within one kind of row, in order (each chain's stages in table
 * order): two columns of a row are ordered only when chains order them (directly or through another
 * stage). `born` and `founded` come before every other stage, `updated` and `deleted` after.
 */
export const CHAINS: readonly (readonly string[])[] = [
  ['created', 'updated'],
  ['created', 'deleted'],
  ['created', 'ordered', 'paid', 'shipped', 'delivered', 'returned'],
  ['delivered', 'ended'],
  ['ordered', 'cancelled'],
  ['created', 'issued', 'due'],
  ['issued', 'paid'],
  ['issued', 'cancelled'],
  ['created', 'rented', 'returned'],
  ['rented', 'due'],
  ['created', 'requested', 'approved', 'resolved', 'ended'],
  ['requested', 'cancelled'],
  ['approved', 'started', 'ended'],
  ['hired', 'terminated'],
  ['started', 'cancelled'],
  // A booking or an order comes before the stay or service it books starts; a refund after a payment.
  ['ordered', 'started'],
  ['paid', 'refunded'],
];

const RANK = new Map(STAGES.map((stage, index) => [stage.id, index]));
const BY_WORD = new Map(STAGES.flatMap((stage) => stage.words.map((word) => [word, stage] as const)));
const EARLIEST = new Set(['born', 'founded']);
/** Stages after every other of the row (a record is updated or deleted after whatever it records). */
const LATEST = new Set(['updated', 'deleted']);
/** Pairs of stages in order: the chains' pairs and what follows from them (paid < delivered < ended: paid < ended). */
const COMPARABLE = new Set<string>();
for (const chain of CHAINS) chain.forEach((a, i) => chain.slice(i + 1).forEach((b) => COMPARABLE.add(`${a}<${b}`)));
for (const middle of STAGES) {
  for (const a of STAGES) {
    if (!COMPARABLE.has(`${a.id}<${middle.id}`)) continue;
    for (const b of STAGES) if (COMPARABLE.has(`${middle.id}<${b.id}`)) COMPARABLE.add(`${a.id}<${b.id}`);
  }
}

/** Whether a row's `earlier` stage comes before its `later` one (same chain, a birth or founding first, an update or deletion last). */
export function stageBefore(earlier: string, later: string): boolean {
  if (RANK.get(earlier)! >= RANK.get(later)!) return false;
  return EARLIEST.has(earlier) || LATEST.has(later) || COMPARABLE.has(`${earlier}<${later}`);
}

/** Words of a name that make a time a plan rather than a fact (`expected_delivery`, `next_billing`). */
const FUTURE_WORDS = new Set(['due', 'deadline', 'expires', 'expiry', 'expiration', 'expected', 'estimated', 'scheduled', 'planned', 'next', 'until', 'to', 'end', 'ends', 'renewal', 'renews', 'eta']);

/** The stage a name or status value means: its last word that is a stage word (`payment_due_date` → due). */
export function stageOf(name: string): Stage | undefined {
  const words = idWords(name);
  for (let i = words.length - 1; i >= 0; i--) {
    const stage = BY_WORD.get(words[i]!);
    if (stage) return stage;
  }
  // `check_in`, `check_out`: a stage word written as two words.
  for (let i = words.length - 1; i > 0; i--) {
    const stage = BY_WORD.get(words[i - 1]! + words[i]!);
    if (stage) return stage;
  }
  // `dateOfBirth`, `signedUpAt`: a few stages are two words.
  const joined = words.join('');
  if (joined.includes('signedup')) return BY_WORD.get('signup');
  return undefined;
}

/** Whether a date column holds facts (never after the reference date): no word of a plan or an end that may lie ahead. */
export function pastTime(field: Field): boolean {
  return !idWords(field.id).some((word) => FUTURE_WORDS.has(word));
}

/** Entities whose rows are people (by id): birth dates 18–90 years back. */
const PEOPLE = ['user', 'people', 'person', 'customer', 'author', 'employee', 'member', 'contact', 'student', 'teacher', 'patient', 'client', 'staff', 'driver', 'player', 'subscriber', 'guest', 'candidate', 'applicant', 'owner', 'manager', 'agent', 'actor', 'artist', 'vet', 'doctor', 'nurse', 'worker'];
export function peopleLike(entity: Entity): boolean {
  const id = entity.id.toLowerCase();
  return PEOPLE.some((word) => id.includes(word));
}

/** The status column of a row: a value for each of its stages (`paid` → the paid stage). */
export interface StatusLink {
  /** Index of the status field. */
  index: number;
  /** Status values and the stage each means (undefined: none, like `draft` or `active`). */
  stages: Map<string, string | undefined>;
}

/** A parent whose created-like time a root time of the row follows. */
export interface ParentAnchor {
  /** Index of the row's reference field. */
  reference: number;
  parent: string;
  parentKey: string;
  parentTime: string;
}

export interface Lifecycle {
  stage: Stage | undefined;
  /** Indexes of earlier date columns of the row: the value is not before the latest of them. */
  earlier: number[];
  /** Index of a `born` column among `earlier` the value keeps `afterBirthDays` from, or -1. */
  birth: number;
  /** The status column whose values say whether the (nullable) column holds a time. */
  status?: StatusLink;
  /** Parents the value follows (a time of the row with no earlier column). */
  parents: ParentAnchor[];
  window: StageWindow;
  /** Days after the latest earlier time, for a stage that follows closely (the stage's; an `end_time` of a datetime: hours). */
  gap?: readonly [number, number];
  /** Never after the reference date. */
  past: boolean;
}

/** The end of a datetime named a time of day (`end_time`, `finishTime`) follows its start by 15 minutes to 8 hours. */
const HOURS_GAP: readonly [number, number] = [1 / 96, 1 / 3];

const STATUS_WORDS = new Set(['status', 'state', 'stage', 'phase']);

/** Values of a status-like field: an enum's values, a weighted choice's, or a plain string's by its table (status-values.ts). */
function statusValues(entity: Entity, field: Field): string[] | undefined {
  const words = idWords(field.id);
  if (!STATUS_WORDS.has(words[words.length - 1] ?? '')) return undefined;
  const strategy = field.generation?.strategy;
  if (strategy?.kind === 'weightedChoice') return strategy.choices.map((choice) => String(choice.value));
  if (!strategy && field.type === 'enum') return (field.values ?? []).map(String);
  return statusSetOf(entity, field)?.values.slice();
}

/** Whether a row whose status means `status` holds a time of `stage`: the stage itself or a later one of its chain. */
export function statusImplies(status: string | undefined, stage: string): boolean {
  return status !== undefined && (status === stage || stageBefore(stage, status));
}

/** The status column a nullable fact (not a plan such as `expires_on`, which active rows have too) follows. */
function statusLink(entity: Entity, field: Field, stage: Stage): StatusLink | undefined {
  if (!field.nullable || !pastTime(field)) return undefined;
  for (const [index, candidate] of entity.fields.entries()) {
    const values = candidate === field ? undefined : statusValues(entity, candidate);
    if (!values) continue;
    const stages = new Map(values.map((value) => [value, stageOf(value)?.id]));
    if ([...stages.values()].includes(stage.id)) return { index, stages };
  }
  return undefined;
}

/** Created-like columns of a parent: every activity stage of its own (no gap after another: `created_at`, `booked_at`, `enrolled_on`), earliest first. */
function anchorsOf(parent: Entity): string[] {
  const found: { id: string; rank: number }[] = [];
  for (const field of parent.fields) {
    if (!DATES.includes(field.type) || field.references) continue;
    const stage = stageOf(field.id);
    if (!stage || stage.window !== 'activity' || stage.gap || stage.id === 'updated' || stage.id === 'deleted' || stage.id === 'died') continue;
    found.push({ id: field.id, rank: RANK.get(stage.id)! });
  }
  return found.sort((a, b) => a.rank - b.rank).map((anchor) => anchor.id);
}

/** Whether a column's value reads no other column of its row (so a time may follow it without a cycle): no strategy, or a plain date range. */
function independent(field: Field): boolean {
  const strategy = field.generation?.strategy;
  return !strategy || (strategy.kind === 'dateRange' && strategy.after === undefined && strategy.afterField === undefined) || strategy.kind === 'literal';
}

/** Whether a field is a date column without a strategy or reference: what lifecycles apply to. */
export function lifecycleField(field: Field): boolean {
  return DATES.includes(field.type) && !field.generation?.strategy && !field.references;
}

/** What a date column is in the life of its row (undefined for fields that are not free date columns). */
export function lifecycleOf(entity: Entity, field: Field, entities: readonly Entity[], deferred: readonly string[]): Lifecycle | undefined {
  if (!lifecycleField(field)) return undefined;
  const stage = stageOf(field.id);
  // An end that has happened (`ended_at`, `closed_on`) is activity; one that may lie ahead (`end_date`, `due_date`) is not.
  const past = pastTime(field);
  const earlier: number[] = [];
  let birth = -1;
  if (stage) {
    entity.fields.forEach((other, index) => {
      // A fact never follows a plan (`paid_at` is not kept after `due_date`, which may lie ahead).
      if (other === field || !DATES.includes(other.type) || (past && !pastTime(other)) || !independent(other)) return;
      const otherStage = stageOf(other.id);
      if (otherStage && stageBefore(otherStage.id, stage.id)) {
        earlier.push(index);
        if (otherStage.id === 'born') birth = index;
      }
    });
  }
  const window: StageWindow = stage && !(stage.window === 'future' && past) ? stage.window : past ? 'activity' : 'future';
  const parents: ParentAnchor[] = [];
  // A time whose row has no earlier activity (a birth or founding aside) follows its parents instead.
  if (window === 'activity' && earlier.every((index) => EARLIEST.has(stageOf(entity.fields[index]!.id)!.id))) {
    for (const [index, candidate] of entity.fields.entries()) {
      const target = referenceTarget(candidate);
      if (!target || target.entity === entity.id || deferred.includes(candidate.id)) continue;
      const parent = entities.find((other) => other.id === target.entity);
      for (const parentTime of parent ? anchorsOf(parent) : []) parents.push({ reference: index, parent: target.entity, parentKey: target.field, parentTime });
    }
  }
  const status = stage ? statusLink(entity, field, stage) : undefined;
  const gap = stage?.id === 'ended' && field.type === 'datetime' && idWords(field.id).includes('time') ? HOURS_GAP : stage?.gap;
  return { stage, earlier, birth, ...(status ? { status } : {}), parents, window, ...(gap ? { gap } : {}), past: window !== 'future' };
}
