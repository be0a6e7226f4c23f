import { parse, type Token } from '@messageformat/parser';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../errors.ts';
import { paymentMethod, paymentStatus, rentCycle } from '../enums.ts';
import { messages as validationMessages } from '../validation.ts';
import { catalogues } from './catalogues.ts';
import { validationKey } from './keys.ts';
import { LANGUAGES, preferredLanguage, resolveLanguage } from './languages.ts';
import { catalogueGroups } from './groups.ts';
import { deleteConfirmFields, deleteConfirmMessage, entityTexts } from './entity-texts.ts';
import { entities, entityList } from '../entities/index.ts';
import { drawerNavigation, navKey } from '../navigation.ts';
import { expenseCategory, feeKind } from '../enums.ts';
import { arrearsBucketLabels, arrearsColumns } from '../ledger.ts';
import en from './catalogues/en.json' with { type: 'json' };

/** What a message needs from its caller and how it branches: its arguments, each select's cases. */
const shapeOf = (message: string) => {
  const args = new Set<string>();
  const selects: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument' || token.type === 'function') args.add(token.arg);
      if (token.type === 'select' || token.type === 'plural' || token.type === 'selectordinal') {
        args.add(token.arg);
        if (token.type === 'select') selects.push(`${token.arg}: ${token.cases.map((c) => c.key).join(' ')}`);
        else
          expect(
            token.cases.map((c) => c.key),
            `${message}: a plural needs 'other'`,
          ).toContain('other');
        for (const c of token.cases) walk(c.tokens);
      }
    }
  };
  walk(parse(message));
  return { args: [...args].sort(), selects: selects.sort() };
};

describe('the catalogues (issue 30)', () => {
  const keys = Object.fromEntries(LANGUAGES.map((l) => [l, Object.keys(catalogues[l]).sort()]));

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key English has, and no other', (language) => {
    expect(keys[language]).toEqual(keys.en);
  });

  it('have an error message for every error code in every language; the English is the spec’s', () => {
    for (const [code, { message }] of Object.entries(errorCodes)) {
      expect(catalogues.en[`error.${code}`]).toBe(message);
      for (const language of LANGUAGES) expect(catalogues[language][`error.${code}`], code).toBeTruthy();
    }
  });

  it('give each message the same ICU arguments and select cases in every language', () => {
    for (const key of keys.en ?? []) {
      const english = shapeOf(catalogues.en[key] ?? '');
      for (const language of LANGUAGES) {
        expect(shapeOf(catalogues[language][key] ?? ''), `${language} ${key}`).toEqual(english);
      }
    }
  });

  it('give the documents every value of the options they print, in the options’ own English', () => {
    for (const [name, option, english] of [
      ['paymentMethod', paymentMethod, (label: string) => label],
      ['paymentStatus', paymentStatus, (label: string) => label],
      ['rentCycle', rentCycle, (label: string) => label.toLowerCase()],
    ] as const) {
      for (const [value, label] of Object.entries(option.labels)) {
        expect(catalogues.en[`doc.${name}.${value}`], `${name}.${value}`).toBe(english(label));
      }
    }
  });

  it('keep the validation messages’ English, each with its key', () => {
    for (const [name, text] of Object.entries(validationMessages)) {
      expect(validationKey(text)).toBe(`validation.${name}`);
      expect(catalogues.en[`validation.${name}`]).toBe(text);
    }
    expect(validationKey('Some message without a key.')).toBeUndefined();
  });
});

describe('the language of a person or a request', () => {
  it('falls back along the candidates, then to English', () => {
    expect(resolveLanguage(null, 'fr', 'sw')).toBe('fr');
    expect(resolveLanguage(undefined, 'de')).toBe('en');
  });

  it('follows an Accept-Language header or the browser’s languages', () => {
    expect(preferredLanguage('de-DE,sw-KE;q=0.8,fr;q=0.9')).toBe('fr');
    expect(preferredLanguage('sw-TZ')).toBe('sw');
    expect(preferredLanguage(['de', 'fr-CD'])).toBe('fr');
    expect(preferredLanguage('fr;q=0, de')).toBe('en');
    expect(preferredLanguage(undefined)).toBe('en');
  });
});

describe('the texts the definitions give keys to (issue 30)', () => {
  const english = (key: string) => catalogues.en[key];

  it('puts every namespace in exactly one catalogue group', () => {
    const grouped = Object.values(catalogueGroups).flat();
    expect([...grouped].sort()).toEqual(Object.keys(en).sort());
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  it('has every entity definition’s text in every language, its English the definition’s words', () => {
    const derived = entityList.flatMap(entityTexts);
    expect(derived.length).toBeGreaterThan(entityList.length * 10);
    for (const { key, english: words } of derived) {
      expect(english(`entity.${key}`), key).toBe(words);
      for (const language of LANGUAGES)
        expect(catalogues[language][`entity.${key}`], `${language} ${key}`).toBeTruthy();
    }
    // and no key that no definition gives (a text renamed in a definition leaves none behind)
    const keys = new Set(derived.map(({ key }) => `entity.${key}`));
    expect(Object.keys(catalogues.en).filter((k) => k.startsWith('entity.') && !keys.has(k))).toEqual([]);
  });

  it('gives a delete confirmation the definition’s words once its arguments are the row’s values', () => {
    for (const def of entityList) {
      const message = deleteConfirmMessage(def);
      const args = deleteConfirmFields(message);
      expect(args.length, def.name).toBeGreaterThan(0);
      const dates = new Set(def.fields.filter((f) => f.kind === 'date').map((f) => f.name));
      if (args.some((a) => dates.has(a))) continue; // a date: the page's language formats it
      const row = Object.fromEntries(args.map((a, i) => [a, `value ${i}`]));
      expect(
        message.replace(/\{(\w+)\}/g, (_, a: string) => String(row[a])),
        def.name,
      ).toBe(def.ui.deleteConfirm(row));
    }
    expect(deleteConfirmMessage(entities.expenses)).toBe(
      'Are you sure you want to delete this expense: {category} of {expense_date}?',
    );
  });

  it('has every drawer item’s and section’s label in every language, keyed by its words', () => {
    const labels = drawerNavigation(entityList).flatMap((s) => [s.title, ...s.items.map((i) => i.label)]);
    expect(labels).toContain('Owner Payouts');
    expect(navKey('Owner Payouts')).toBe('nav.ownerPayouts');
    for (const label of labels) {
      expect(english(navKey(label)), label).toBe(label);
      for (const language of LANGUAGES)
        expect(catalogues[language][navKey(label)], `${language} ${label}`).toBeTruthy();
    }
  });
});

describe('a page’s option labels as select messages (issue 30)', () => {
  const casesOf = (key: string) => {
    const select = parse(catalogues.en[key] ?? '').find((t) => t.type === 'select');
    expect(select?.type, key).toBe('select');
    const cases = select?.type === 'select' ? select.cases : [];
    return Object.fromEntries(
      cases
        .filter((c) => c.key !== 'other')
        .map((c) => [c.key, c.tokens.map((t) => (t.type === 'content' ? t.value : '')).join('')]),
    );
  };

  it('names the management fee’s kinds as their options do', () => {
    expect(casesOf('ownership.feeKind')).toEqual(feeKind.labels);
  });

  it('names the arrears’ age buckets and columns as the Arrears page’s definition does', () => {
    expect(casesOf('dashboard.arrearsBucket')).toEqual(arrearsBucketLabels);
    expect(casesOf('arrears.overdueBucket')).toEqual(arrearsBucketLabels);
    for (const col of arrearsColumns) expect(catalogues.en[`arrears.column.${col.field}`]).toBe(col.label);
  });

  it('names the dashboard’s expense categories as the expenses’ definition does', () => {
    const [select] = parse(catalogues.en['dashboard.category'] ?? '');
    expect(select?.type).toBe('select');
    const cases = select?.type === 'select' ? select.cases : [];
    const labels = Object.fromEntries(
      cases.map((c) => [c.key, c.tokens.map((t) => (t.type === 'content' ? t.value : '')).join('')]),
    );
    expect(labels).toEqual(
      Object.fromEntries(expenseCategory.values.map((v) => [v, expenseCategory.labels[v]])),
    );
  });
});
