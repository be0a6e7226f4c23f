import { describe, expect, it } from 'vitest';
import { catalogues } from '@kodi/domain/i18n';
import { MAX_IMPORT_ROWS, PASSWORD_MIN_LENGTH } from '@kodi/domain';
import { FIRST_TOPIC, LOCK_MINUTES, topicText, type HelpBlock, type HelpTopic } from './help-shared.ts';
import { helpTopics as english } from './help-topics.ts';
import { helpTopics as kiswahili } from './help-topics.sw.ts';
import { helpTopics as french } from './help-topics.fr.ts';

/**
 * The Help Center in Kiswahili and French (issue 30): the same topics as the English source, block
 * for block, saying the same numbers, in the glossary's words.
 */
const translations = { sw: kiswahili, fr: french } as const;

/** A block's kind and how many items it has: `list:6`. */
const shapeOf = (block: HelpBlock) => (block.kind === 'p' ? 'p' : `${block.kind}:${block.items.length}`);
const outline = (topics: HelpTopic[]) => topics.map((t) => ({ id: t.id, blocks: t.blocks.map(shapeOf) }));

/** Every text of a block, in order (a term's own word left out: CAPTCHA is CAPTCHA everywhere). */
const sentences = (block: HelpBlock): string[] => {
  switch (block.kind) {
    case 'p':
      return [block.text];
    case 'list':
      return block.items;
    case 'qa':
      return block.items.flatMap((i) => [i.q, i.a]);
    case 'terms':
      return block.items.map((i) => i.text);
  }
};

/** The numbers a text states, thousands' separators of any language left out ('10,000', '10 000'). */
const numbersOf = (text: string) =>
  new Set(text.replace(/(\d)[,\u00a0\u202f ](?=\d{3}(?!\d))/g, '$1').match(/\d+/g) ?? []);

const glossary = (language: 'sw' | 'fr', key: string) => {
  const word = catalogues[language][`glossary.${key}`];
  if (!word) throw new Error(`no glossary.${key} in ${language}`);
  return word.toLowerCase();
};

describe.each(Object.entries(translations))('the Help Center in %s', (language, topics) => {
  it('has the English topics, in their order, with the same blocks and items', () => {
    expect(outline(topics)).toEqual(outline(english));
    expect(topics[0]?.id).toBe(FIRST_TOPIC);
  });

  it('is a translation, not a copy of the English', () => {
    english.forEach((topic, i) => {
      const other = topics[i];
      if (!other) throw new Error(`no ${topic.id}`);
      if (topic.id !== 'faq') expect(other.title, topic.id).not.toBe(topic.title); // FAQ is FAQ in French
      const theirs = other.blocks.flatMap(sentences);
      topic.blocks.flatMap(sentences).forEach((sentence, j) => {
        expect(theirs[j], `${topic.id}: ${sentence}`).toBeTruthy();
        expect(theirs[j], `${topic.id}: ${sentence}`).not.toBe(sentence);
      });
    });
  });

  it('states every number the English states, topic by topic', () => {
    const all = numbersOf(english.map(topicText).join(' '));
    // the constants of Kodi's rules are among them
    for (const n of [LOCK_MINUTES, PASSWORD_MIN_LENGTH, MAX_IMPORT_ROWS]) expect(all).toContain(String(n));
    english.forEach((topic, i) => {
      const theirs = numbersOf(topicText(topics[i] ?? { id: '', title: '', blocks: [] }));
      const missing = [...numbersOf(topicText(topic))].filter((n) => !theirs.has(n));
      expect(missing, `${language} ${topic.id}`).toEqual([]);
    });
  });

  it('uses the glossary’s words (docs/glossary.md)', () => {
    const text = (id: string) => topicText(topics.find((t) => t.id === id) ?? { id, title: '', blocks: [] });
    const lang = language as 'sw' | 'fr';
    for (const [id, keys] of [
      ['payments', ['receipt', 'balance', 'arrears', 'rent', 'lease']],
      ['occupancy', ['lease', 'deposit', 'rent']],
      ['late-fees-reminders', ['lateFee', 'receipt', 'rent', 'lease']],
      ['owners', ['owner', 'payout']],
      ['properties', ['arrears']],
      ['books', ['receipt', 'balance', 'lease']],
      ['imports', ['lease', 'balance', 'rent']],
      ['glossary', ['deposit', 'tenant', 'receipt']],
    ] as const)
      for (const key of keys)
        expect(text(id).toLowerCase(), `${language} ${id}: ${key}`).toContain(glossary(lang, key));
  });
});
