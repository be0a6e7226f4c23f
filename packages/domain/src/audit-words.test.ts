import { describe, expect, it } from 'vitest';
import {
  auditActionWords,
  auditDetails,
  auditEvents,
  auditKeyLabels,
  auditNoun,
  auditNouns,
  auditTitle,
  englishAuditWords,
  type AuditWords,
} from './audit-words.ts';
import { catalogues } from './i18n/catalogues.ts';
import { entityList } from './entities/index.ts';
import type { Language } from './i18n/languages.ts';

describe('auditTitle', () => {
  const title = (
    action: Parameters<typeof auditTitle>[0]['action'],
    entity: string,
    before: unknown = null,
    after: unknown = null,
  ) => auditTitle({ action, entity, before, after });

  it('says what happened in words', () => {
    expect(title('create', 'charge_waivers', null, { amount: 50_000 })).toBe('Charge waived');
    expect(title('match', 'statement_lines')).toBe('Statement line matched');
    expect(title('ignore', 'statement_lines')).toBe('Statement line ignored');
    expect(title('unmatch', 'statement_lines')).toBe('Statement line unmatched');
    expect(title('webhook', 'statement_lines')).toBe('Payment received by webhook');
    expect(title('create', 'payments')).toBe('Payment recorded');
    expect(title('update', 'payments', { status: 'completed' }, { status: 'void' })).toBe('Payment voided');
    expect(title('update', 'payments', { status: 'pending' }, { status: 'completed' })).toBe(
      'Payment changed',
    );
    expect(title('create', 'units')).toBe('Unit added');
    expect(title('delete', 'occupancy')).toBe('Lease deleted');
    expect(title('update', 'company_settings')).toBe('Company settings changed');
    expect(title('delete', 'statements')).toBe('Statement deleted');
    expect(title('import', 'imports')).toBe('File imported');
    expect(title('sign_in', 'users')).toBe('Signed in');
    expect(title('sign_in_failed', 'users')).toBe('Sign-in failed');
  });

  it("tells users' and tenants' access changes apart by what changed", () => {
    expect(title('access', 'users', { roles: ['viewer'] }, { roles: ['editor'] })).toBe('Roles changed');
    expect(title('access', 'users', { active: true }, { active: false })).toBe('User disabled');
    expect(title('access', 'users', { active: false }, { active: true })).toBe('User enabled');
    expect(title('access', 'users')).toBe('Password set by an administrator');
    expect(title('update', 'users', { mfa_enabled: false }, { mfa_enabled: true })).toBe(
      'Two-factor sign-in turned on',
    );
    expect(
      title('update', 'users', { mfa_enabled: true }, { mfa_enabled: false, mfa_reset_by: 'a@b.c' }),
    ).toBe('Two-factor sign-in reset');
    expect(title('update', 'users', { sessions: 2 }, { sessions: 0, sessions_ended_by: 'a@b.c' })).toBe(
      'Sessions ended',
    );
    expect(title('access', 'tenants', null, { portal_status: 'invited' })).toBe(
      'Invited to the tenant portal',
    );
    expect(title('access', 'tenants', { portal_access: true }, { portal_access: false })).toBe(
      'Portal access turned off',
    );
  });

  it('names a table it does not know by its own name (the server test makes sure none is left)', () => {
    expect(auditNoun('no_such_table')).toBeUndefined();
    expect(title('create', 'no_such_table')).toBe('no such table added');
  });
});

describe('auditDetails', () => {
  it("lists a record's changed fields by label, with amounts, options and dates as people read them", () => {
    expect(
      auditDetails({
        entity: 'payments',
        before: {
          id: 4,
          version: 1,
          amount_paid: '800000.00',
          payment_method: 'cash',
          payment_date: '2026-03-01',
          tenant_id: 3,
          tenant_name: 'Jane Doe',
          details: 'x',
        },
        after: {
          id: 4,
          version: 2,
          amount_paid: 80000,
          payment_method: 'mobilemoney',
          payment_date: '2026-03-02',
          tenant_id: 5,
          tenant_name: 'John Roe',
          details: 'x',
        },
      }),
    ).toEqual([
      'Tenant: Jane Doe → John Roe',
      'Payment Date: Mar 1, 2026 → Mar 2, 2026',
      'Amount Paid: 800,000 → 80,000',
      'Payment Method: Cash → Mobile money',
    ]);
  });

  it('lists what a new record holds, without arrows, leaving out bookkeeping and blanks', () => {
    expect(
      auditDetails({
        entity: 'charges',
        before: null,
        after: {
          id: 9,
          occupancy_id: 12,
          date: '2026-02-01',
          category: 'utility',
          amount: 80000.5,
          description: 'Water',
          rent_due_date: null,
          user_id: 1,
          created_at: '2026-02-01T10:00:00Z',
        },
      }),
    ).toEqual([
      'Lease: #12',
      'Date: Feb 1, 2026',
      'Category: utility',
      'Amount: 80,000.50',
      'Description: Water',
    ]);
  });

  it('writes lists and objects as words, never JSON', () => {
    const lines = auditDetails({
      entity: 'users',
      before: { roles: ['viewer'] },
      after: { roles: ['editor', 'company_admin'] },
    });
    expect(lines).toEqual(['Roles: Viewer → Editor, Company admin']);
    const settings = auditDetails({
      entity: 'company_settings',
      before: { late_fee: { enabled: false, amount: 0 }, daily_run_hour: 6 },
      after: { late_fee: { enabled: true, amount: 50000 }, daily_run_hour: 6 },
    });
    expect(settings).toEqual(['Late fee: Enabled: No, Amount: 0 → Enabled: Yes, Amount: 50,000']);
    expect(settings.join()).not.toMatch(/[{}[\]"]/);
  });
});

describe('the audit log in every language (issue 30)', () => {
  const en = catalogues.en;
  const translator = (language: Language): AuditWords => ({
    language,
    t: (key, english, values) => {
      const message = catalogues[language][key];
      if (message === undefined) return englishAuditWords.t(key, english, values);
      return englishAuditWords.t(key, message, values);
    },
  });

  it('has the English of the code in the catalogue, for every noun, action, event and key label', () => {
    for (const entity of [...entityList.map((e) => e.name), ...Object.keys(auditNouns)])
      expect(en[`audit.noun.${entity}`], entity).toBe(auditNoun(entity));
    for (const [action, words] of Object.entries(auditActionWords))
      expect(en[`audit.did.${action}`]).toBe(words);
    for (const [name, words] of Object.entries(auditEvents)) expect(en[`audit.event.${name}`]).toBe(words);
    for (const [key, label] of Object.entries(auditKeyLabels)) expect(en[`audit.field.${key}`]).toBe(label);
  });

  it('says the same entry in English byte for byte through the catalogue, and in Kiswahili and French', () => {
    const waiver = {
      action: 'create',
      entity: 'charge_waivers',
      before: null,
      after: { amount: 45_000 },
    } as const;
    const voided = {
      entity: 'payments',
      before: { status: 'completed', payment_date: '2026-03-01' },
      after: { status: 'void', payment_date: '2026-03-02' },
    };
    expect(auditTitle(waiver, translator('en'))).toBe(auditTitle(waiver));
    expect(auditDetails(voided, translator('en'))).toEqual(auditDetails(voided));
    expect(auditTitle({ ...waiver, entity: 'units' }, translator('en'))).toBe('Unit added');
    expect(auditTitle(waiver, translator('sw'))).toBe('Tozo imesamehewa');
    expect(auditTitle({ ...waiver, entity: 'units' }, translator('fr'))).toBe('Logement\u00a0: ajout');
    const fr = auditDetails(voided, translator('fr')).map((l) => l.replace(/[\u00a0\u202f]/g, ' '));
    expect(fr).toEqual([
      'Date de paiement : 1 mars 2026 → 2 mars 2026',
      'Statut du paiement : Effectué → Annulé',
    ]);
  });
});
