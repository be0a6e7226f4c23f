import { describe, expect, it } from 'vitest';
import { accountLabel, accountNameKey, defaultAccountNames } from './account-names.ts';
import { catalogues } from './i18n/catalogues.ts';
import { LANGUAGES, type Language } from './i18n/languages.ts';

/** A page's translator in a language: the catalogue's text, else the English given. */
const translator = (language: Language) => (key: string, english: string) =>
  catalogues[language][key] ?? english;

describe('a default account’s name in the reader’s language (issue 30)', () => {
  it('has the default chart’s English in the English catalogue, and a text in every language', () => {
    for (const [role, name] of Object.entries(defaultAccountNames)) {
      expect(catalogues.en[accountNameKey(role)], role).toBe(name);
      for (const language of LANGUAGES) expect(catalogues[language][accountNameKey(role)], role).toBeTruthy();
    }
    const keys = Object.keys(catalogues.en).filter((k) => k.startsWith('accountNames.'));
    expect(keys.sort()).toEqual(Object.keys(defaultAccountNames).map(accountNameKey).sort());
  });

  it('translates a default account whose name is still its role’s default', () => {
    const cash = { name: 'Cash on hand', role: 'cash' };
    expect(accountLabel(cash, translator('sw'))).toBe('Fedha taslimu');
    expect(accountLabel(cash, translator('fr'))).toBe('Caisse');
    expect(accountLabel({ name: 'Plumbing', role: 'expense:plumbing' }, translator('fr'))).toBe('Plomberie');
    expect(accountNameKey('charge_income:utility')).toBe('accountNames.charge_income.utility');
  });

  it('keeps English byte for byte', () => {
    for (const [role, name] of Object.entries(defaultAccountNames))
      expect(accountLabel({ name, role }, translator('en'))).toBe(name);
  });

  it('shows a renamed default account, and an account of the company’s own, as named', () => {
    expect(accountLabel({ name: 'Petty cash', role: 'cash' }, translator('fr'))).toBe('Petty cash');
    // a name with a space more is the company's, not the default
    expect(accountLabel({ name: 'Cash on hand ', role: 'cash' }, translator('sw'))).toBe('Cash on hand ');
    expect(accountLabel({ name: 'Cash on hand', role: null }, translator('sw'))).toBe('Cash on hand');
    expect(accountLabel({ name: 'Cash on hand' }, translator('sw'))).toBe('Cash on hand');
    // a role of no default name (a role the chart may get later) keeps its name
    expect(accountLabel({ name: 'Escrow', role: 'escrow' }, translator('fr'))).toBe('Escrow');
    expect(accountLabel({ name: 'x', role: 'toString' }, translator('fr'))).toBe('x');
  });

  it('falls back to the name while the language’s texts are not in', () => {
    expect(accountLabel({ name: 'Bank', role: 'bank' }, (_key, english) => english)).toBe('Bank');
  });
});
