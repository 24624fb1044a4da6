// The value model: what one generated or cast value is, whatever writes or reads it (loaders, files,
// the runtime's casts and renderers).

/**
 * Values in row arrays, by column type: string/text/enum/uuid → string; integer/number → number
 * (bigint columns may also get bigint); boolean → boolean; date → 'YYYY-MM-DD'; datetime →
 * 'YYYY-MM-DDTHH:mm:ss.sssZ' (UTC); time → 'HH:mm:ss'; json → any JSON value (serialised by the
 * loader); null for NULL.
 */
export type RowValue = string | number | bigint | boolean | null | object;
/** One row's values, in `table.columns` order. */
export type RowValues = RowValue[];
