import { describe, expect, it } from 'vitest';
import { defaultTemplate, defaultTemplates, templateVariablesOf, unknownVariables } from './index.ts';
import { LANGUAGES } from './i18n/languages.ts';
import { catalogues } from './i18n/catalogues.ts';
import { howToPayEnglish, howToPayLines, noPaymentInstructions } from './company-settings.ts';

/** Issue 30: the built-in message templates in every language, their variables the same. */
describe('the built-in templates in each language', () => {
  const english = defaultTemplates.filter((t) => t.language === 'en');

  it('has one per event and channel in every language, each language’s own words', () => {
    for (const language of LANGUAGES) {
      const mine = defaultTemplates.filter((t) => t.language === language);
      expect(mine.map((t) => `${t.kind}:${t.channel}`).sort()).toEqual(
        english.map((t) => `${t.kind}:${t.channel}`).sort(),
      );
      if (language === 'en') continue;
      for (const t of mine) {
        const en = defaultTemplate(t.kind, t.channel, 'en');
        expect(t.body, `${language} ${t.kind} ${t.channel}`).not.toBe(en.body);
        expect(t.name).not.toBe(en.name);
      }
    }
  });

  it('names the same variables in every language (subject and text), and only known ones', () => {
    for (const t of defaultTemplates) {
      const en = defaultTemplate(t.kind, t.channel, 'en');
      const where = `${t.language} ${t.kind} ${t.channel}`;
      expect(templateVariablesOf(t.body), where).toEqual(templateVariablesOf(en.body));
      expect(templateVariablesOf(t.subject ?? ''), where).toEqual(templateVariablesOf(en.subject ?? ''));
      expect(unknownVariables(`${t.subject ?? ''} ${t.body}`), where).toEqual([]);
      expect(t.subject === null, where).toBe(t.channel === 'sms');
    }
  });

  it('keeps the English texts as they were (the specification’s words)', () => {
    expect(defaultTemplate('overdue', 'sms').body).toBe(
      'Hi {{tenant_first_name}}, your rent for {{unit_name}} due {{due_date}} is overdue. Balance: {{balance}}. {{company_name}}',
    );
    expect(defaultTemplate('receipt', 'email').subject).toBe(
      'Receipt {{receipt_number}}: {{amount_paid}} received',
    );
    expect(english.map((t) => t.name)).toEqual([
      'Rent due soon (e-mail)',
      'Rent due soon (SMS)',
      'Rent due today (e-mail)',
      'Rent due today (SMS)',
      'Rent overdue (e-mail)',
      'Rent overdue (SMS)',
      'Payment receipt (e-mail)',
      'Payment receipt (SMS)',
    ]);
  });
});

describe('the how-to-pay lines in words (issue 30)', () => {
  it('say in English what the documents’ catalogue says, and in each language its own', () => {
    for (const [key, english] of Object.entries(howToPayEnglish))
      expect(catalogues.en[`doc.howToPay.${key}`]).toBe(english);
    const i = {
      ...noPaymentInstructions,
      mtn_momo_code: '12345',
      bank_details: 'Stanbic 0123',
      other: 'Cash at the office',
    };
    expect(howToPayLines(i, 'A12')).toEqual([
      'MTN MoMo: merchant code 12345, reference A12',
      'Bank: Stanbic 0123, reference A12',
      'Cash at the office',
    ]);
    expect(howToPayLines(i, null)).toEqual([
      'MTN MoMo: merchant code 12345',
      'Bank: Stanbic 0123',
      'Cash at the office',
    ]);
    const say = (key: string) => catalogues.fr[`doc.howToPay.${key}`] ?? key;
    expect(
      howToPayLines(i, 'A12', (key, values) =>
        say(key).replace(/\{(\w+)\}/g, (_a, n: string) => values[n] ?? ''),
      ),
    ).toEqual([
      'MTN MoMo : code marchand 12345, référence A12',
      'Banque : Stanbic 0123, référence A12',
      'Cash at the office',
    ]);
  });
});
