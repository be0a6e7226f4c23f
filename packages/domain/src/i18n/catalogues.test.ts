import { parse, type Token } from '@messageformat/parser';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../errors.ts';
import { paymentMethod, paymentStatus, rentCycle } from '../enums.ts';
import { messages as validationMessages } from '../validation.ts';
import { catalogues } from './catalogues.ts';
import { validationKey } from './keys.ts';
import { LANGUAGES, preferredLanguage, resolveLanguage } from './languages.ts';

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
