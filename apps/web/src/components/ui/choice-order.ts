import type { PickerChoice } from './search-picker.tsx';

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/**
 * How well a label answers what was typed: 0 when the label starts with it ('Ug' → 'Uganda'),
 * 1 when one of its later words does ('Ug' → 'Republic of Ug…'), 2 otherwise (a substring the
 * server matched: 'Portugal'). Case and accents are ignored.
 */
export const matchRank = (label: string, typed: string): number => {
  const q = fold(typed);
  if (!q) return 0;
  const l = fold(label);
  if (l.startsWith(q)) return 0;
  return l.split(/[^\p{L}\p{N}]+/u).some((word) => word.startsWith(q)) ? 1 : 2;
};

/**
 * The choices with those whose label starts with the typed text first, then those with a word
 * starting with it, then the rest; the server's order (by name) is kept within each group.
 */
export const prefixFirst = <V extends string | number>(
  choices: readonly PickerChoice<V>[],
  typed: string,
): PickerChoice<V>[] =>
  choices
    .map((choice, i) => ({ choice, i, rank: matchRank(choice.label, typed) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.choice);
