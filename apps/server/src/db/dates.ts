/**
 * A `date` expression as YYYY-MM-DD text, for answers. PostgreSQL's `date` holds 4713 BC to 5874897 AD;
 * the API and the web write YYYY-MM-DD, and `to_char` of a year past 9999 gives six digits (or fails,
 * past 294276) and of a year BC drops its era. Rows the checks keep out now (isReceivedWhen) may have
 * been stored before: such a day is answered as the nearest one YYYY-MM-DD writes (0001-01-01,
 * 9999-12-31), never as text the answers' schemas and the web cannot read. Null stays null.
 */
export const isoDaySql = (expr: string): string =>
  `to_char(CASE WHEN ${expr} < DATE '0001-01-01' THEN DATE '0001-01-01' WHEN ${expr} > DATE '9999-12-31' THEN DATE '9999-12-31' ELSE ${expr} END, 'YYYY-MM-DD')`;
