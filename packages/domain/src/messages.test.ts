import { describe, expect, it } from 'vitest';
import {
  defaultTemplates,
  messageTemplateBody,
  renderTemplate,
  SMS_PARTS_WARNING,
  templateVariables,
  templateWarnings,
  unknownVariables,
} from './messages.ts';

describe('message templates', () => {
  it('renders each variable, spaces inside the braces allowed, a missing value as nothing', () => {
    expect(
      renderTemplate('Hi {{tenant_first_name}}, {{ amount_due }} due {{due_date}}.{{receipt_url}}', {
        tenant_first_name: 'Amina',
        amount_due: 'UGX 250,000',
        due_date: 'Apr 1, 2026',
      }),
    ).toBe('Hi Amina, UGX 250,000 due Apr 1, 2026.');
  });

  it('finds the placeholders that name no variable, once each', () => {
    expect(unknownVariables('{{balance}} {{amount}} {{ amount }} {{Balance}} {{}}')).toEqual([
      'amount',
      'Balance',
      '',
    ]);
    expect(unknownVariables(templateVariables.map((v) => `{{${v}}}`).join(' '))).toEqual([]);
  });

  it('refuses an unknown variable on save, and an e-mail without a subject', () => {
    const bad = messageTemplateBody.safeParse({
      name: 'X',
      channel: 'sms',
      kind: 'due',
      body: 'Pay {{amount_owed}}',
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['body'] });
    expect(bad.error?.issues[0]?.message).toContain('{{amount_owed}}');
    const subject = messageTemplateBody.safeParse({ name: 'X', channel: 'email', kind: 'due', body: 'Hi' });
    expect(subject.error?.issues[0]).toMatchObject({
      path: ['subject'],
      message: 'An e-mail needs a subject.',
    });
    const sms = messageTemplateBody.parse({
      name: 'X',
      channel: 'sms',
      kind: 'due',
      subject: 'ignored?',
      body: 'Hi',
    });
    expect(sms.subject).toBe('ignored?');
  });

  it('warns about an SMS over 160 characters only', () => {
    expect(templateWarnings({ channel: 'sms', body: 'x'.repeat(160) })).toEqual([]);
    expect(templateWarnings({ channel: 'sms', body: 'x'.repeat(161) })).toEqual([SMS_PARTS_WARNING]);
    expect(templateWarnings({ channel: 'email', body: 'x'.repeat(500) })).toEqual([]);
  });

  it('has a valid built-in template for each event and channel, the SMS ones within one part of text', () => {
    const kinds = new Set(defaultTemplates.map((t) => `${t.kind}:${t.channel}`));
    expect(kinds.size).toBe(8);
    for (const t of defaultTemplates) {
      expect(messageTemplateBody.safeParse(t).success).toBe(true);
      if (t.channel === 'sms') expect(t.body.length).toBeLessThanOrEqual(160);
    }
  });
});
