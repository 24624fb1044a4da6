// Status columns that are plain strings (no enum, no CHECK): the values a status takes by what its
// row is, read from the words of its name (`payment_status`) and then of its table (`orders`). The
// rule `status.by-table` (field-rules.ts) makes them; lifecycles.ts reads the same values to set the
// times a status implies (`paid_at` on paid orders, `terminated_at` on terminated employees).
import type { Entity, Field } from '../../model/config-types.ts';
import { idWords } from './field-rule.ts';
import { roomOf } from './room.ts';

export interface StatusSet {
  /** What rows it is for, as the report and docs name it. */
  id: string;
  /** Words (singular, lower case) of a column or table name that mean such rows. */
  words: readonly string[];
  values: readonly string[];
  /** Share of rows per value (same order). */
  weights: readonly number[];
}

/** The sets, most specific first: a name's words are tried against every set before the table's. */
export const STATUS_SETS: readonly StatusSet[] = [
  { id: 'payments', words: ['payment', 'transaction', 'charge', 'refund', 'payout'], values: ['pending', 'completed', 'failed', 'refunded'], weights: [10, 80, 5, 5] },
  { id: 'shipments', words: ['shipment', 'shipping', 'delivery', 'parcel', 'package', 'consignment', 'fulfillment', 'fulfilment'], values: ['pending', 'shipped', 'in_transit', 'delivered', 'returned'], weights: [10, 10, 15, 60, 5] },
  { id: 'invoices', words: ['invoice', 'bill', 'billing', 'statement'], values: ['draft', 'sent', 'paid', 'void'], weights: [10, 25, 55, 10] },
  { id: 'orders', words: ['order', 'purchase', 'sale', 'cart', 'checkout'], values: ['pending', 'paid', 'shipped', 'delivered', 'cancelled'], weights: [10, 15, 15, 50, 10] },
  { id: 'subscriptions', words: ['subscription', 'membership', 'plan', 'license', 'licence', 'contract'], values: ['trialing', 'active', 'past_due', 'cancelled', 'expired'], weights: [10, 60, 5, 15, 10] },
  { id: 'tickets', words: ['ticket', 'issue', 'case', 'incident', 'request', 'bug', 'support', 'complaint'], values: ['open', 'in_progress', 'resolved', 'closed'], weights: [20, 15, 25, 40] },
  { id: 'employees', words: ['employee', 'staff', 'worker', 'personnel', 'employment', 'hire', 'teacher', 'instructor', 'professor', 'faculty', 'nurse', 'physician', 'doctor', 'vet', 'driver', 'agent', 'technician', 'engineer', 'clerk', 'cashier', 'courier'], values: ['active', 'on_leave', 'terminated'], weights: [80, 5, 15] },
  { id: 'bookings', words: ['booking', 'reservation', 'appointment', 'visit', 'stay', 'event'], values: ['pending', 'confirmed', 'completed', 'cancelled'], weights: [10, 25, 50, 15] },
  { id: 'loans', words: ['loan', 'rental', 'lending', 'borrowing', 'checkout', 'hold'], values: ['active', 'returned', 'overdue'], weights: [25, 65, 10] },
  { id: 'enrolments', words: ['enrollment', 'enrolment', 'registration', 'admission', 'application', 'course'], values: ['enrolled', 'completed', 'withdrawn'], weights: [55, 35, 10] },
  { id: 'tasks', words: ['task', 'project', 'job', 'todo', 'milestone', 'story'], values: ['todo', 'in_progress', 'done', 'blocked'], weights: [30, 25, 40, 5] },
  { id: 'accounts', words: ['user', 'account', 'customer', 'member', 'client', 'profile', 'patient', 'student', 'vendor', 'supplier'], values: ['active', 'inactive', 'suspended'], weights: [80, 15, 5] },
];

const STATUS_NAMES = new Set(['status', 'state', 'stage', 'phase']);

/** A word without a plural `s` (`orders` → order, `deliveries` → delivery, `statuses` kept out: never a context word). */
function singular(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ses') || word.endsWith('xes')) return word.slice(0, -2);
  return word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The set whose words include one of `words` (the first set in table order), if any. */
function setOfWords(words: readonly string[]): StatusSet | undefined {
  const singulars = words.map(singular);
  return STATUS_SETS.find((set) => set.words.some((word) => singulars.includes(word)));
}

/**
 * The status set a plain string column takes (version 4): its name's last word is `status` (or
 * `stage`, `phase`; `state` is a place), it has no strategy, and every value fits its length. The
 * name's other words choose the set first (`payment_status` in `orders` is a payment's), then the
 * table's; undefined where neither says (the column keeps the plain default).
 */
export function statusSetOf(entity: Entity, field: Field): StatusSet | undefined {
  if (field.type !== 'string' || field.generation?.strategy || field.references || (field.format !== undefined && field.format !== 'plain')) return undefined;
  const words = idWords(field.id);
  const last = words[words.length - 1] ?? '';
  if (!STATUS_NAMES.has(last) || last === 'state') return undefined;
  const set = setOfWords(words.slice(0, -1)) ?? setOfWords(idWords(entity.id));
  if (!set) return undefined;
  const room = roomOf(field);
  return set.values.some((value) => value.length > room) ? undefined : set;
}
