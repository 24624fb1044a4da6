// A number's text exactly as String(number) writes it, made faster for the numbers generated rows
// hold most: integers and decimals of up to four places (prices, amounts). V8 turns a double with
// a fraction into its shortest round-trip text in about half a microsecond, more than generating
// the value took; building the digits of an integer is a few table look-ups.

/** '0' … '999'. */
const DIGITS = Array.from({ length: 1000 }, (_, index) => String(index));
/** '000' … '999': the groups after the first. */
const GROUPS = Array.from({ length: 1000 }, (_, index) => String(index).padStart(3, '0'));
/** 10^places → the fractions of that many places, trailing zeros dropped ('5' for 0.50, '05' for 0.05). */
const FRACTIONS = new Map([10, 100, 1000, 10000].map((scale) => [scale, Array.from({ length: scale }, (_, index) => String(index).padStart(String(scale).length - 1, '0').replace(/0+$/, ''))]));
const SCALES = [10, 100, 1000, 10000] as const;
/**
 * Decimals are built only below this magnitude: there a double's spacing is far finer than 1e-4,
 * so the decimal k / 10^places nearest the value is its only shortest round-trip text.
 */
const DECIMAL_LIMIT = 1e9;

/** The digits of a non-negative safe integer. */
function integerDigits(value: number): string {
  if (value < 1000) return DIGITS[value]!;
  const high = Math.floor(value / 1000);
  return integerDigits(high) + GROUPS[value - high * 1000]!;
}

/** String(value), for every number. */
export function numberText(value: number): string {
  if (Number.isSafeInteger(value)) return value < 0 ? `-${integerDigits(-value)}` : integerDigits(value === 0 ? 0 : value);
  const magnitude = value < 0 ? -value : value;
  if (!(magnitude < DECIMAL_LIMIT)) return String(value);
  for (const scale of SCALES) {
    const scaled = Math.round(magnitude * scale);
    // Correctly rounded division: equal only when the value is the double nearest scaled / scale.
    if (scaled / scale !== magnitude) continue;
    const whole = Math.floor(scaled / scale);
    const text = `${integerDigits(whole)}.${FRACTIONS.get(scale)![scaled - whole * scale]!}`;
    return value < 0 ? `-${text}` : text;
  }
  return String(value);
}
