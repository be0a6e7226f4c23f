import { describe, expect, it } from 'vitest';
import { matchRank, prefixFirst } from './choice-order.ts';

const choices = ['Portugal (PRT)', 'Uganda (UGA)', 'Uruguay (URY)', 'Bouvet Island (BVT)'].map(
  (label, i) => ({
    value: i,
    label,
  }),
);

describe('prefixFirst', () => {
  it("puts Uganda first for 'Ug'", () => {
    expect(prefixFirst(choices, 'Ug').map((c) => c.label)).toEqual([
      'Uganda (UGA)',
      'Portugal (PRT)',
      'Uruguay (URY)',
      'Bouvet Island (BVT)',
    ]);
  });

  it('ranks a word prefix between a name prefix and a substring, keeping the given order within a rank', () => {
    const list = [
      { value: 1, label: 'Guinea-Bissau (GNB)' },
      { value: 2, label: 'Papua New Guinea (PNG)' },
      { value: 3, label: 'Equatorial Guinea (GNQ)' },
      { value: 4, label: 'Guinea (GIN)' },
      { value: 5, label: 'Seguin (XXX)' },
    ];
    expect(prefixFirst(list, 'guin').map((c) => c.value)).toEqual([1, 4, 2, 3, 5]);
  });

  it('ignores case, accents and spaces around the typed text', () => {
    expect(matchRank('Côte d’Ivoire (CIV)', ' cote ')).toBe(0);
    expect(matchRank('Réunion (REU)', 'REU')).toBe(0);
    expect(matchRank('Portugal (PRT)', 'ug')).toBe(2);
  });

  it('keeps the order when nothing is typed', () => {
    expect(prefixFirst(choices, '')).toEqual(choices);
  });
});
