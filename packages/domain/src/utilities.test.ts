import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BLOCKS_MESSAGES, blocksText, readBlocks, tariffBill, type TariffBlock } from './utilities.ts';

const blocks = (text: string): TariffBlock[] => {
  const read = readBlocks(text);
  if ('error' in read) throw new Error(read.error);
  return read;
};

describe('tariff blocks', () => {
  it('reads them as text or as the API’s list, and writes them back as text', () => {
    expect(blocks('10: 1,500; 30: 2000 ; above: 2500.25')).toEqual([
      { up_to: 10, price: 1500 },
      { up_to: 30, price: 2000 },
      { up_to: null, price: 2500.25 },
    ]);
    expect(blocks('2500')).toEqual([{ up_to: null, price: 2500 }]);
    expect(readBlocks([{ up_to: '10', price: '1500' }, { price: 2000 }])).toEqual([
      { up_to: 10, price: 1500 },
      { up_to: null, price: 2000 },
    ]);
    expect(blocksText(blocks('10: 1500; :2000'))).toBe('10: 1500; above: 2000');
    expect(blocksText(blocks('0.5'))).toBe('0.5');
  });

  it('refuses limits that do not increase, negative prices, a last block with a limit, or none', () => {
    expect(readBlocks('10: 1; 10: 2; above: 3')).toEqual({ error: BLOCKS_MESSAGES.increasing });
    expect(readBlocks([{ up_to: 10, price: -1 }, { price: 1 }])).toEqual({ error: BLOCKS_MESSAGES.price });
    expect(readBlocks('10: 1; 20: 2')).toEqual({ error: BLOCKS_MESSAGES.last });
    expect(readBlocks('above: 1; above: 2')).toEqual({ error: BLOCKS_MESSAGES.last });
    expect(readBlocks('')).toEqual({ error: BLOCKS_MESSAGES.empty });
    expect(readBlocks('0: 1; above: 2')).toEqual({ error: BLOCKS_MESSAGES.upTo });
    expect(readBlocks('1.0001: 1; above: 2')).toEqual({ error: BLOCKS_MESSAGES.upTo });
    expect(readBlocks('above: 0.00001')).toEqual({ error: BLOCKS_MESSAGES.price });
    expect(readBlocks('ten: five')).toEqual({ error: BLOCKS_MESSAGES.format });
    expect(readBlocks(42)).toEqual({ error: BLOCKS_MESSAGES.format });
  });
});

describe('tariffBill', () => {
  const nwsc = { blocks: blocks('10: 1500; 30: 2000; above: 2500'), fixed_charge: 3000, minimum_charge: 0 };

  it('prices each block of the consumption at its price, plus the fixed charge', () => {
    // 10 × 1500 + 20 × 2000 + 5 × 2500 + 3000
    expect(tariffBill(nwsc, 35, 0)).toMatchObject({
      amount: '70500.00',
      fixed_charge: '3000.00',
      minimum_applied: false,
    });
    expect(tariffBill(nwsc, 35, 0).lines).toEqual([
      { up_to: 10, quantity: '10.000', price: 1500, amount: '15000.0000000' },
      { up_to: 30, quantity: '20.000', price: 2000, amount: '40000.0000000' },
      { up_to: null, quantity: '5.000', price: 2500, amount: '12500.0000000' },
    ]);
    // exactly at a limit, inside the first block, nothing
    expect(tariffBill(nwsc, 10, 0).amount).toBe('18000.00');
    expect(tariffBill(nwsc, 4.5, 0).amount).toBe('9750.00');
    expect(tariffBill(nwsc, 0, 0)).toMatchObject({ amount: '3000.00', lines: [] });
  });

  it('charges at least the minimum, and one block is a flat price', () => {
    const flat = { blocks: blocks('750'), fixed_charge: 0, minimum_charge: 5000 };
    expect(tariffBill(flat, 2, 0)).toMatchObject({ amount: '5000.00', minimum_applied: true });
    expect(tariffBill(flat, 100, 0)).toMatchObject({ amount: '75000.00', minimum_applied: false });
  });

  it('rounds once per bill, half up, to the currency’s minor unit', () => {
    const kes = { blocks: blocks('above: 0.3333'), fixed_charge: 0.01 };
    // 3 × 0.3333 = 0.9999 (+ 0.01) = 1.0099 → 1.01 in cents; rounding each block would differ
    expect(tariffBill(kes, 3, 2).amount).toBe('1.01');
    expect(tariffBill(kes, 3, 0).amount).toBe('1.00');
    expect(tariffBill({ blocks: blocks('above: 0.5') }, 1, 0).amount).toBe('1.00');
    expect(tariffBill({ blocks: blocks('above: 0.5') }, 0.999, 2).amount).toBe('0.50');
    expect(tariffBill({ blocks: blocks('1.5: 1; above: 3') }, '2.25', 2).amount).toBe('3.75');
  });

  it('never charges less for more consumption (any tariff, any two consumptions)', () => {
    const tariff = fc
      .tuple(
        fc.uniqueArray(fc.integer({ min: 1, max: 100_000 }), { maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
      )
      .map(([limits, prices, fixed, minimum]) => {
        const sorted = [...limits].sort((a, b) => a - b);
        return {
          blocks: [
            ...sorted.map((l, i) => ({ up_to: l / 100, price: (prices[i] ?? 0) / 10_000 })),
            { up_to: null, price: (prices[5] ?? 0) / 10_000 },
          ],
          fixed_charge: fixed / 100,
          minimum_charge: minimum / 100,
        };
      });
    fc.assert(
      fc.property(
        tariff,
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.constantFrom(0, 2),
        (t, a, b, decimals) => {
          const [less, more] = a <= b ? [a, b] : [b, a];
          const low = Number(tariffBill(t, less / 1000, decimals).amount);
          const high = Number(tariffBill(t, more / 1000, decimals).amount);
          return low <= high;
        },
      ),
      { numRuns: 500 },
    );
  });
});
