import { describe, expect, it } from 'vitest';
import { deliveryStatus, messageChannel, messageKind, messageStatus } from '../enums.ts';
import { statementLineStatuses, statementSourceLabels } from '../collections.ts';
import { catalogues } from './catalogues.ts';
import { LANGUAGES } from './languages.ts';

/**
 * The option labels the operations pages translate by keys derived from the domain's option lists
 * (issue 30: Messages, Announcements, Collections): every value has its key in every language, and
 * the English is the domain's own label (the pages show it as before).
 */
describe('the operations pages’ option texts (issue 30)', () => {
  const derived: [string, string][] = [
    ...messageStatus.values.map((v): [string, string] => [`messages.status.${v}`, messageStatus.labels[v]]),
    ...messageChannel.values.map((v): [string, string] => [
      `messages.channel.${v}`,
      messageChannel.labels[v],
    ]),
    ...messageKind.values.map((v): [string, string] => [`messages.kind.${v}`, messageKind.labels[v]]),
    ...deliveryStatus.values.map((v): [string, string] => [
      `messages.delivery.${v}`,
      deliveryStatus.labels[v],
    ]),
    ...statementLineStatuses.map((v): [string, string] => [`collections.lineStatus.${v}`, v]),
    ...statementLineStatuses.map((v): [string, string] => [
      `collections.statusOption.${v}`,
      `${v[0]?.toUpperCase() ?? ''}${v.slice(1)}`,
    ]),
    ...Object.entries(statementSourceLabels).map(([v, label]): [string, string] => [
      `collections.source.${v}`,
      label,
    ]),
  ];

  it('has every value’s key in every language, its English the domain’s label', () => {
    for (const [key, english] of derived) {
      expect(catalogues.en[key], key).toBe(english);
      for (const language of LANGUAGES) expect(catalogues[language][key], `${language} ${key}`).toBeTruthy();
    }
  });

  it('leaves no key of those options that no value gives', () => {
    const keys = new Set(derived.map(([key]) => key));
    const prefixes = [
      'messages.status.',
      'messages.channel.',
      'messages.kind.',
      'messages.delivery.',
      'collections.lineStatus.',
      'collections.statusOption.',
      'collections.source.',
    ];
    const stale = Object.keys(catalogues.en).filter(
      (k) => prefixes.some((p) => k.startsWith(p)) && !keys.has(k),
    );
    expect(stale).toEqual([]);
  });

  it('translates them (Kiswahili and French are not English copies, brand names aside)', () => {
    const brands = new Set([
      'SMS',
      'WhatsApp',
      'MTN Mobile Money',
      'Airtel Money',
      'Test',
      'Invitation',
      'E-mail',
    ]);
    for (const [key, english] of derived) {
      if (brands.has(english)) continue;
      expect(catalogues.sw[key], key).not.toBe(english);
    }
  });
});
