/**
 * Metered utilities (issue 28): a tariff's blocks, written as text and as the API's list, and the bill
 * of a consumption priced by them. Exact: quantities, prices and money are scaled integers (BigInt),
 * never floats; a bill is rounded once, to the currency's minor unit.
 */

/** One block of a tariff: the price of each unit of consumption up to `up_to` (none: the rest). */
export type TariffBlock = { up_to: number | null; price: number };

/** A tariff as the bill reads it: money in the company's currency. */
export type TariffTerms = {
  blocks: readonly TariffBlock[];
  fixed_charge?: number | string | null;
  minimum_charge?: number | string | null;
};

/** The largest reading NUMERIC(14,3) keeps. */
export const MAX_READING = 99_999_999_999.999;

/** Decimals kept: a consumption and a block's limit to the thousandth, a price to 1/10,000. */
export const QUANTITY_DECIMALS = 3;
export const PRICE_DECIMALS = 4;

export const BLOCKS_MESSAGES = {
  format: 'Write the blocks as "up to: price" separated by ";", e.g. "10: 1500; 30: 2000; above: 2500".',
  empty: 'Give at least one block (one block is a flat price).',
  increasing: 'Each block\'s "up to" must be greater than the one before it.',
  last: 'The last block has no "up to" (it prices the rest).',
  price: 'Prices must be 0 or more, with at most 4 decimals.',
  upTo: '"Up to" must be more than 0, with at most 3 decimals.',
} as const;

const decimalsOf = (n: number): number => {
  const s = String(n);
  if (s.includes('e')) return 99;
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
};

/** The blocks' problem, or undefined when they are a valid tariff. */
export const blocksProblem = (blocks: readonly TariffBlock[]): string | undefined => {
  if (blocks.length === 0) return BLOCKS_MESSAGES.empty;
  let before = 0;
  for (const [i, b] of blocks.entries()) {
    if (!Number.isFinite(b.price) || b.price < 0 || decimalsOf(b.price) > PRICE_DECIMALS || b.price > 1e9)
      return BLOCKS_MESSAGES.price;
    const last = i === blocks.length - 1;
    if (last) {
      if (b.up_to !== null) return BLOCKS_MESSAGES.last;
      continue;
    }
    if (b.up_to === null) return BLOCKS_MESSAGES.last;
    if (!Number.isFinite(b.up_to) || b.up_to <= 0 || decimalsOf(b.up_to) > QUANTITY_DECIMALS || b.up_to > 1e9)
      return BLOCKS_MESSAGES.upTo;
    if (b.up_to <= before) return BLOCKS_MESSAGES.increasing;
    before = b.up_to;
  }
  return undefined;
};

const NUMBER = /^\d+(\.\d+)?$/;
const plain = (s: string) => s.replace(/[\s,]/g, '');

/**
 * Blocks from their text ('10: 1500; 30: 2000; above: 2500'; a flat price alone: '2500') or from the
 * API's list (`[{ up_to: 10, price: 1500 }, { price: 2500 }]`): the list, or the message of what is wrong.
 */
export const readBlocks = (input: unknown): TariffBlock[] | { error: string } => {
  let blocks: TariffBlock[];
  if (Array.isArray(input)) {
    blocks = [];
    for (const b of input as unknown[]) {
      if (typeof b !== 'object' || b === null) return { error: BLOCKS_MESSAGES.format };
      const { up_to, price } = b as { up_to?: unknown; price?: unknown };
      const num = (v: unknown) =>
        typeof v === 'number' ? v : typeof v === 'string' && NUMBER.test(plain(v)) ? Number(plain(v)) : NaN;
      blocks.push({ up_to: up_to === undefined || up_to === null ? null : num(up_to), price: num(price) });
    }
  } else if (typeof input === 'string') {
    const parts = input
      .split(';')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    blocks = [];
    for (const part of parts) {
      const m = /^(?:(above|rest|[\d.,\s]+)?\s*:)?\s*([\d.,\s]+)$/i.exec(part);
      if (!m) return { error: BLOCKS_MESSAGES.format };
      const limit = m[1] === undefined || /^(above|rest)$/i.test(m[1]) ? null : plain(m[1]);
      const price = plain(m[2] ?? '');
      if ((limit !== null && !NUMBER.test(limit)) || !NUMBER.test(price))
        return { error: BLOCKS_MESSAGES.format };
      blocks.push({ up_to: limit === null ? null : Number(limit), price: Number(price) });
    }
  } else return { error: BLOCKS_MESSAGES.format };
  const problem = blocksProblem(blocks);
  return problem ? { error: problem } : blocks;
};

/** The blocks as the API answers and the form shows them: '10: 1500; 30: 2000; above: 2500', or '2500'. */
export const blocksText = (blocks: readonly TariffBlock[]): string =>
  blocks.length === 1 && blocks[0]?.up_to === null
    ? String(blocks[0].price)
    : blocks.map((b) => `${b.up_to === null ? 'above' : String(b.up_to)}: ${b.price}`).join('; ');

/** `v` as an integer of 10^-places (exact; more decimals than that are refused). */
const scaled = (v: number | string, places: number): bigint => {
  const s = typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(places + 2)) : v.trim();
  const m = /^(-)?(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) throw new Error(`not a decimal: ${s}`);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > places) throw new Error(`more than ${places} decimals: ${s}`);
  const n = BigInt((m[2] ?? '0') + frac.padEnd(places, '0'));
  return m[1] ? -n : n;
};

/** How the bill came to its amount: each block's quantity and price, and the charges. */
export type BillLine = { up_to: number | null; quantity: string; price: number; amount: string };
export type Bill = {
  /** the amount billed, rounded to the currency's minor unit, as NUMERIC text ('1234.50') */
  amount: string;
  lines: BillLine[];
  fixed_charge: string;
  /** whether the minimum charge made the amount */
  minimum_applied: boolean;
};

const SCALE = 10n ** BigInt(QUANTITY_DECIMALS + PRICE_DECIMALS); // of amounts before rounding

const fixedText = (n: bigint, places: number): string => {
  const neg = n < 0n;
  const s = (neg ? -n : n).toString().padStart(places + 1, '0');
  const out = places === 0 ? s : `${s.slice(0, -places)}.${s.slice(-places)}`;
  return neg ? `-${out}` : out;
};

/**
 * The bill of `consumption` (≥ 0, at most 3 decimals) by `tariff`: each block's units at its price,
 * plus the fixed charge, at least the minimum charge, rounded half up once to the currency's minor
 * unit (`decimals`: 0 for UGX, 2 for KES; NUMERIC(14,2) keeps no more than cents).
 */
export const tariffBill = (tariff: TariffTerms, consumption: number | string, decimals: number): Bill => {
  const used = scaled(consumption, QUANTITY_DECIMALS);
  if (used < 0n) throw new Error('a consumption is never negative');
  const lines: BillLine[] = [];
  let total = 0n;
  let from = 0n;
  for (const b of tariff.blocks) {
    const limit = b.up_to === null ? null : scaled(b.up_to, QUANTITY_DECIMALS);
    const to = limit === null || limit > used ? used : limit;
    const quantity = to > from ? to - from : 0n;
    const amount = quantity * scaled(b.price, PRICE_DECIMALS);
    if (quantity > 0n)
      lines.push({
        up_to: b.up_to,
        quantity: fixedText(quantity, QUANTITY_DECIMALS),
        price: b.price,
        amount: fixedText(amount, QUANTITY_DECIMALS + PRICE_DECIMALS),
      });
    total += amount;
    if (limit === null || limit >= used) break;
    from = limit;
  }
  const cents = (v: number | string | null | undefined) => scaled(v ?? 0, 2) * (SCALE / 100n);
  const fixed = cents(tariff.fixed_charge);
  total += fixed;
  const minimum = cents(tariff.minimum_charge);
  const minimumApplied = total < minimum;
  if (minimumApplied) total = minimum;
  const places = Math.min(Math.max(decimals, 0), 2);
  const unit = SCALE / 10n ** BigInt(places);
  const rounded = ((total + unit / 2n) / unit) * unit;
  return {
    amount: fixedText(rounded / (SCALE / 100n), 2),
    lines,
    fixed_charge: fixedText(fixed / (SCALE / 100n), 2),
    minimum_applied: minimumApplied,
  };
};

/**
 * The flag a reading would get, as the phone shows it while it is typed (the server decides when it
 * saves it: features/utilities/readings.ts): lower than the reading before, or a consumption over three
 * times the usual (the average of the meter's last six ordinary readings; none: no such flag).
 */
export const readingFlagOf = (
  previous: number,
  value: number,
  usual: number | null,
  isReset = false,
): 'lower' | 'high' | null => {
  if (isReset) return null;
  if (value < previous) return 'lower';
  return usual !== null && value - previous > 3 * usual ? 'high' : null;
};
