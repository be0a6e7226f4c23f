import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { expectStatus } from '../../test/rent-cycle.ts';
import { portalCompany, portalTenant, tenantWithLease } from '../../test/portal.ts';
import type { TestClient } from '../../test/client.ts';

/** A PDF's words on one line, its no-break spaces as spaces. */
const words = (payload: Buffer) => pdfText(payload).replace(/[\s\u00a0\u202f]+/g, ' ');

/** What each language writes on a receipt and a statement (catalogues/documents.{language}.json). */
const expected = {
  en: {
    receipt: [
      'Payment Receipt',
      'Amount paid',
      'Payment method',
      'Thank you for your payment!',
      'Verify this receipt',
    ],
    statement: ['Tenant Statement', 'Statement date', 'Description', 'Balance', 'page 1 of 1'],
    money: /UGX 1,000,000/,
  },
  sw: {
    receipt: [
      'Risiti ya Malipo',
      'Kiasi kilicholipwa',
      'Njia ya malipo',
      'Asante kwa malipo yako!',
      'Hakiki risiti hii',
    ],
    statement: [
      'Taarifa ya Akaunti ya Mpangaji',
      'Tarehe ya taarifa',
      'Maelezo',
      'Salio',
      'ukurasa 1 kati ya 1',
    ],
    money: /UGX 1,000,000/,
  },
  fr: {
    receipt: [
      'Reçu de paiement',
      'Montant payé',
      'Mode de paiement',
      'Merci pour votre paiement !',
      'Vérifier ce reçu',
    ],
    statement: ['Relevé du locataire', 'Date du relevé', 'Libellé', 'Solde', 'page 1 sur 1'],
    money: /1 000 000 UGX/,
  },
} as const;
const others = (language: keyof typeof expected) =>
  (Object.keys(expected) as (keyof typeof expected)[]).filter((l) => l !== language);

/**
 * Issue 30, 'Who reads what': a receipt and a statement are printed in their tenant's language, for
 * staff and in the portal alike, else in the company's default language for tenants, else English.
 */
describe(`receipts and statements in the tenant's language (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  const setLanguage = async (staff: TestClient, tenantId: number, language: string | null) => {
    const tenant = expectStatus(await staff.get(`/tenants/${tenantId}`), 200).json<Record<string, unknown>>();
    expectStatus(await staff.put(`/tenants/${tenantId}`, { ...tenant, language }), 200);
  };

  it('prints each language’s words, dates and money for a tenant of that language, staff and portal alike', async () => {
    const { staff } = await portalCompany(t);
    const a = await tenantWithLease(staff);
    const tenant = await portalTenant(t, staff, a.tenantId);
    for (const language of ['sw', 'fr', 'en'] as const) {
      await setLanguage(staff, a.tenantId, language);
      const want = expected[language];
      for (const res of [
        await staff.get(`/payments/${a.paymentId}/receipt.pdf`),
        await tenant.get(`/portal/payments/${a.paymentId}/receipt.pdf`),
      ]) {
        const text = words(expectStatus(res, 200).rawPayload);
        for (const w of want.receipt) expect(text, language).toContain(w);
        expect(text, language).toMatch(want.money);
        for (const other of others(language)) expect(text).not.toContain(expected[other].receipt[0]);
      }
      for (const res of [
        await staff.get(`/occupancy/${a.leaseId}/statement.pdf`),
        await tenant.get(`/portal/leases/${a.leaseId}/statement.pdf`),
      ]) {
        const text = words(expectStatus(res, 200).rawPayload);
        for (const w of want.statement) expect(text, language).toContain(w);
        expect(text, language).toMatch(want.money);
        for (const other of others(language)) expect(text).not.toContain(expected[other].statement[0]);
      }
    }
    // French dates: '1 janv. 2026' for the lease's start, English 'Jan 1, 2026'
    await setLanguage(staff, a.tenantId, 'fr');
    expect(
      words(expectStatus(await staff.get(`/occupancy/${a.leaseId}/statement.pdf`), 200).rawPayload),
    ).toContain('1 janv. 2026');
    await setLanguage(staff, a.tenantId, 'en');
    expect(
      words(expectStatus(await staff.get(`/occupancy/${a.leaseId}/statement.pdf`), 200).rawPayload),
    ).toContain('Jan 1, 2026');
  });

  it("falls back to the company's default language for a tenant without one, else English", async () => {
    const { company, staff } = await portalCompany(t);
    const a = await tenantWithLease(staff);
    await setLanguage(staff, a.tenantId, null);
    const receipt = async () =>
      words(expectStatus(await staff.get(`/payments/${a.paymentId}/receipt.pdf`), 200).rawPayload);
    expect(await receipt()).toContain('Payment Receipt');
    await t.database.query(`UPDATE companies SET default_language = 'sw' WHERE id = $1`, [company.id]);
    expect(await receipt()).toContain('Risiti ya Malipo');
    // the tenant's own language wins over the company's
    await setLanguage(staff, a.tenantId, 'fr');
    expect(await receipt()).toContain('Reçu de paiement');
  });

  it('writes a voided receipt’s mark and line in the tenant’s language', async () => {
    const { staff } = await portalCompany(t);
    const a = await tenantWithLease(staff);
    await setLanguage(staff, a.tenantId, 'fr');
    const payment = expectStatus(await staff.get(`/payments/${a.paymentId}`), 200).json<{
      version: number;
    }>();
    expectStatus(
      await staff.post(`/payments/${a.paymentId}/void`, {
        reason: 'Saisie en double',
        version: payment.version,
      }),
      200,
    );
    const text = words(expectStatus(await staff.get(`/payments/${a.paymentId}/receipt.pdf`), 200).rawPayload);
    expect(text).toContain('ANNULÉ');
    expect(text).toMatch(/ANNULÉ\. Ce reçu a été annulé le \d{1,2} \S+ \d{4}: Saisie en double/);
    expect(text).toContain('Annulé');
  });
});
