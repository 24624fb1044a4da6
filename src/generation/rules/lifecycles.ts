// Lifecycles of generator version 4: what a date or datetime column is in the life of its row, read
// from the words of its name (a small vocabulary of stages with an order: born < created < ordered <
// paid < shipped < delivered, issued < due, rented < returned, hired < terminated, start < end…).
// From it: the earlier columns of the same row it follows, the status column whose values imply it
// (`paid_at` only on paid rows), the parents whose created time it follows (every reference), and
// the window of its values (birth dates decades back, activity over recent years, past tense never
// after the reference date). The makers are lifecycle-makers.ts; the report checks the same facts.
// Version 5 (feature `plannedStages`) reads with a larger vocabulary (LifeWords): a scheduled time,
// a check-in and a check-out are stages too, and the stages of one visit follow by minutes.
import type { Entity, Field, FieldType } from '../../model/config-types.ts';
import type { GeneratorVersion } from '../versions.ts';
import { referenceTarget } from '../../model/table-spec.ts';
import { hasFeature } from '../versions.ts';
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
  /** A plan drawn from the past (version 5's `scheduled_at`): facts of its row may follow it, though its words say it may lie ahead. */
  plan?: boolean;
}

/** Every stage of version 4, in the order of a life: a stage may follow only stages listed before it. */
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

/**
 * Version 5's stages: version 4's, with a visit's plan and attendance. `scheduled_at` (and any name
 * with `scheduled`, `planned` or `appointment`) is the plan of its row's event, drawn from the past;
 * `check_in`/`checked_in_at` and `check_out`/`checked_out_at` are stages of their own instead of a
 * start and an end. A name with a plan word and an end word is the planned end.
 */
const PLANNED_STAGES: readonly Stage[] = STAGES.flatMap((stage): Stage[] => {
  if (stage.id === 'started') {
    return [
      { id: 'scheduled', words: ['scheduled', 'schedule', 'appointment', 'planned'], window: 'activity', gap: [0, 30], plan: true },
      { id: 'scheduled-end', words: [], window: 'activity', plan: true },
      { id: 'checkedin', words: ['checkin', 'checkedin'], window: 'activity' },
      { ...stage, words: stage.words.filter((word) => word !== 'checkin') },
    ];
  }
  if (stage.id === 'ended') return [{ ...stage, words: stage.words.filter((word) => word !== 'checkout') }, { id: 'checkedout', words: ['checkout', 'checkedout'], window: 'future' }];
  return [stage];
});

/** Version 5's chains: a visit is booked, scheduled, attended (checked in, started, ended) and left; a plan before its end. */
const PLANNED_CHAINS: readonly (readonly string[])[] = [
  ...CHAINS,
  ['created', 'ordered', 'scheduled', 'checkedin', 'started', 'ended', 'checkedout'],
  ['requested', 'approved', 'scheduled'],
  ['scheduled', 'scheduled-end'],
  ['scheduled', 'cancelled'],
  ['checkedin', 'checkedout'],
];

/** A vocabulary of stages: their words, their order in a life and which pairs are ordered. */
export class LifeWords {
  readonly #rank: Map<string, number>;
  readonly #byWord: Map<string, Stage>;
  /** Pairs of stages in order: the chains' pairs and what follows from them (paid < delivered < ended: paid < ended). */
  readonly #comparable = new Set<string>();

  constructor(
    readonly stages: readonly Stage[],
    chains: readonly (readonly string[])[],
    /** Version 5: plan words name the `scheduled` stage, a visit's stages follow by minutes. */
    readonly planned: boolean,
  ) {
    this.#rank = new Map(stages.map((stage, index) => [stage.id, index]));
    this.#byWord = new Map(stages.flatMap((stage) => stage.words.map((word) => [word, stage] as const)));
    const comparable = this.#comparable;
    for (const chain of chains) chain.forEach((a, i) => chain.slice(i + 1).forEach((b) => comparable.add(`${a}<${b}`)));
    for (const middle of stages) {
      for (const a of stages) {
        if (!comparable.has(`${a.id}<${middle.id}`)) continue;
        for (const b of stages) if (comparable.has(`${middle.id}<${b.id}`)) comparable.add(`${a.id}<${b.id}`);
      }
    }
  }

  stage(id: string): Stage | undefined {
    return this.stages[this.#rank.get(id) ?? -1];
  }

  /** Position of a stage in the order of a life. */
  rank(id: string): number {
    return this.#rank.get(id)!;
  }

  /**
   * The stage a column of a row means: its name's (of), except that in version 5 a check-out in a
   * row without a check-in is a loan's (`checkout_date` of a library's loans is when it was rented).
   */
  in(entity: Entity, name: string): Stage | undefined {
    const stage = this.of(name);
    if (stage?.id !== 'checkedout') return stage;
    const visit = entity.fields.some((field) => DATES.includes(field.type) && this.of(field.id)?.id === 'checkedin');
    return visit ? stage : this.stage('rented');
  }

  /** Whether a row's `earlier` stage comes before its `later` one (same chain, a birth or founding first, an update or deletion last). */
  before(earlier: string, later: string): boolean {
    if (this.#rank.get(earlier)! >= this.#rank.get(later)!) return false;
    return EARLIEST.has(earlier) || LATEST.has(later) || this.#comparable.has(`${earlier}<${later}`);
  }

  /** The stage a name or status value means: its last word that is a stage word (`payment_due_date` → due). */
  of(name: string): Stage | undefined {
    const words = idWords(name);
    if (this.planned && words.some((word) => PLAN_WORDS.has(word))) {
      return this.stage(words.some((word) => this.#byWord.get(word)?.id === 'ended') ? 'scheduled-end' : 'scheduled');
    }
    for (let i = words.length - 1; i >= 0; i--) {
      const stage = this.#byWord.get(words[i]!);
      if (stage) return stage;
    }
    // `check_in`, `check_out`: a stage word written as two words.
    for (let i = words.length - 1; i > 0; i--) {
      const stage = this.#byWord.get(words[i - 1]! + words[i]!);
      if (stage) return stage;
    }
    // `dateOfBirth`, `signedUpAt`: a few stages are two words.
    const joined = words.join('');
    if (joined.includes('signedup')) return this.#byWord.get('signup');
    return undefined;
  }
}

/** Words of version 5 that make a time its row's plan (the `scheduled` stage). */
const PLAN_WORDS = new Set(['scheduled', 'schedule', 'appointment', 'planned']);
const EARLIEST = new Set(['born', 'founded']);
/** Stages after every other of the row (a record is updated or deleted after whatever it records). */
const LATEST = new Set(['updated', 'deleted']);

const V4_WORDS = new LifeWords(STAGES, CHAINS, false);
const V5_WORDS = new LifeWords(PLANNED_STAGES, PLANNED_CHAINS, true);

/** The stage vocabulary of a generator version. */
export function lifeWords(version: GeneratorVersion): LifeWords {
  return hasFeature(version, 'plannedStages') ? V5_WORDS : V4_WORDS;
}

/** Version 4's vocabulary: what status values and names meant before a version chose. */
export function stageBefore(earlier: string, later: string): boolean {
  return V4_WORDS.before(earlier, later);
}

/** The stage a name or status value means in version 4 (`payment_due_date` → due). */
export function stageOf(name: string): Stage | undefined {
  return V4_WORDS.of(name);
}

/** Words of a name that make a time a plan rather than a fact (`expected_delivery`, `next_billing`). */
const FUTURE_WORDS = new Set(['due', 'deadline', 'expires', 'expiry', 'expiration', 'expected', 'estimated', 'scheduled', 'planned', 'next', 'until', 'to', 'end', 'ends', 'renewal', 'renews', 'eta']);

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
  /** Status values whose rows hold the column's time: its stage or a later one of its chain (statusImplies). */
  implying: Set<string>;
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
export function statusImplies(words: LifeWords, status: string | undefined, stage: string): boolean {
  return status !== undefined && (status === stage || words.before(stage, status));
}

/** The status column a nullable fact (not a plan such as `expires_on`, which active rows have too) follows. */
function statusLink(words: LifeWords, entity: Entity, field: Field, stage: Stage): StatusLink | undefined {
  if (!field.nullable || !pastTime(field)) return undefined;
  for (const [index, candidate] of entity.fields.entries()) {
    const values = candidate === field ? undefined : statusValues(entity, candidate);
    if (!values) continue;
    const stages = new Map(values.map((value) => [value, words.of(value)?.id]));
    if (![...stages.values()].includes(stage.id)) continue;
    const implying = new Set([...stages].filter(([, status]) => statusImplies(words, status, stage.id)).map(([value]) => value));
    return { index, stages, implying };
  }
  return undefined;
}

/** Created-like columns of a parent: every activity stage of its own (no gap after another: `created_at`, `booked_at`, `enrolled_on`), earliest first. */
function anchorsOf(words: LifeWords, parent: Entity): string[] {
  const found: { id: string; rank: number }[] = [];
  for (const field of parent.fields) {
    if (!DATES.includes(field.type) || field.references) continue;
    const stage = words.in(parent, field.id);
    if (!stage || stage.window !== 'activity' || stage.gap || stage.id === 'updated' || stage.id === 'deleted' || stage.id === 'died') continue;
    found.push({ id: field.id, rank: words.rank(stage.id) });
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

/** What a date column is in the life of its row (undefined for fields that are not free date columns), in the stages of the version. */
export function lifecycleOf(entity: Entity, field: Field, entities: readonly Entity[], deferred: readonly string[], version: GeneratorVersion): Lifecycle | undefined {
  if (!lifecycleField(field)) return undefined;
  const words = lifeWords(version);
  const stage = words.in(entity, field.id);
  // An end that has happened (`ended_at`, `closed_on`) is activity; one that may lie ahead (`end_date`, `due_date`) is not.
  // Version 5: so is a check-out named in the present (a hotel's `check_out` may lie ahead; `checked_out_at` has happened).
  const past = pastTime(field) && !(stage?.id === 'checkedout' && !idWords(field.id).includes('checked'));
  const earlier: number[] = [];
  let birth = -1;
  if (stage) {
    entity.fields.forEach((other, index) => {
      // A fact never follows a plan (`paid_at` is not kept after `due_date`, which may lie ahead),
      // unless the plan is drawn from the past (version 5's `scheduled_at` before `checked_in_at`).
      if (other === field || !DATES.includes(other.type) || !independent(other)) return;
      const otherStage = words.in(entity, other.id);
      if (past && !pastTime(other) && otherStage?.plan !== true) return;
      if (otherStage && words.before(otherStage.id, stage.id)) {
        earlier.push(index);
        if (otherStage.id === 'born') birth = index;
      }
    });
  }
  const window: StageWindow = stage && !(stage.window === 'future' && past) ? stage.window : past ? 'activity' : 'future';
  const parents: ParentAnchor[] = [];
  // A time whose row has no earlier activity (a birth or founding aside) follows its parents instead.
  if (window === 'activity' && earlier.every((index) => EARLIEST.has(words.in(entity, entity.fields[index]!.id)!.id))) {
    for (const [index, candidate] of entity.fields.entries()) {
      const target = referenceTarget(candidate);
      if (!target || target.entity === entity.id || deferred.includes(candidate.id)) continue;
      const parent = entities.find((other) => other.id === target.entity);
      for (const parentTime of parent ? anchorsOf(words, parent) : []) parents.push({ reference: index, parent: target.entity, parentKey: target.field, parentTime });
    }
  }
  const status = stage ? statusLink(words, entity, field, stage) : undefined;
  const visitGap = words.planned && stage ? visitGapOf(words, entity, field, stage.id, earlier) : undefined;
  const gap = visitGap ?? (stage?.id === 'ended' && field.type === 'datetime' && idWords(field.id).includes('time') ? HOURS_GAP : stage?.gap);
  return { stage, earlier, birth, ...(status ? { status } : {}), parents, window, ...(gap ? { gap } : {}), past: window !== 'future' };
}

/** Tables whose check-ins and check-outs are nights apart (a hotel's stay), not hours (a clinic's visit). */
const LODGING = ['booking', 'reservation', 'stay', 'hotel', 'room', 'lodging', 'accommodation', 'rental', 'guest'];

/**
 * Version 5: the gap of a stage of a visit after the latest earlier column of its row, in days.
 * A check-in follows its schedule by up to 30 minutes (a booking by up to 60 days); what follows a
 * schedule or check-in (a start, an end, a planned end) follows by minutes to hours; a check-out
 * follows by 1–14 nights on dates and lodging tables, else by 10 minutes to 4 hours.
 */
function visitGapOf(words: LifeWords, entity: Entity, field: Field, stage: string, earlier: readonly number[]): readonly [number, number] | undefined {
  const before = new Set(earlier.map((index) => words.in(entity, entity.fields[index]!.id)?.id));
  const visit = before.has('scheduled') || before.has('checkedin');
  const day = field.type === 'date';
  switch (stage) {
    case 'checkedin':
      return before.has('scheduled') ? [0, 1 / 48] : earlier.length > 0 ? [0, 60] : undefined;
    case 'started':
      return visit ? [0, day ? 0 : 1 / 24] : undefined;
    case 'ended':
    case 'scheduled-end':
      return visit ? (day ? [0, 1] : HOURS_GAP) : undefined;
    case 'checkedout': {
      const lodging = day || LODGING.some((word) => entity.id.toLowerCase().includes(word));
      return earlier.length === 0 ? undefined : lodging ? [1, 14] : [1 / 144, 1 / 6];
    }
    default:
      return undefined;
  }
}
