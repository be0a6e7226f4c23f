import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { expectStatus, setSettings } from '../../test/rent-cycle.ts';
import { portalCompany, portalTenant, tenantWithLease } from '../../test/portal.ts';

const INSTRUCTIONS = {
  mpesa_paybill: '123456',
  mtn_momo_code: '*165*3#',
  airtel_money_code: null,
  bank_details: 'Stanbic, Kampala Road, Kampala Homes Ltd 9030001234567',
  other: '',
};

/**
 * Issue 29, 'How to pay' and 'An account number per lease': the company's payment instructions, with
 * each lease's account number, in the portal, on statements, in reminders and on receipts.
 */
describe(`how tenants pay (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('keeps the instructions in the settings, refusing a paybill that is not one', async () => {
    const { staff } = await portalCompany(t);
    const current = expectStatus(await staff.get('/company-settings'), 200).json<{ version: number }>();
    const bad = await staff.put('/company-settings', {
      payment_instructions: { ...INSTRUCTIONS, mpesa_paybill: '12ab' },
      version: current.version,
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('A paybill or till number is 5 to 7 digits.');
    const saved = (await setSettings(staff, { payment_instructions: INSTRUCTIONS })).json<{
      payment_instructions: unknown;
    }>();
    expect(saved.payment_instructions).toEqual({ ...INSTRUCTIONS, other: null });
    // a change of another setting leaves them as they are
    const after = (await setSettings(staff, { daily_run_hour: 8 })).json<{ payment_instructions: unknown }>();
    expect(after.payment_instructions).toEqual(saved.payment_instructions);
  });

  it('shows them with the lease’s account number in the portal, the statement, messages and the receipt', async () => {
    const { staff } = await portalCompany(t);
    await setSettings(staff, { payment_instructions: INSTRUCTIONS });
    const a = await tenantWithLease(staff);
    const lease = expectStatus(await staff.get(`/occupancy/${a.leaseId}`), 200).json<{
      account_reference: string;
    }>();
    const ref = lease.account_reference;
    expect(ref).toMatch(/^PORTALUNIT\d+$/);
    const lines = [
      `M-Pesa: paybill 123456, account ${ref}`,
      `MTN MoMo: merchant code *165*3#, reference ${ref}`,
      `Bank: Stanbic, Kampala Road, Kampala Homes Ltd 9030001234567, reference ${ref}`,
    ];

    const tenant = await portalTenant(t, staff, a.tenantId);
    const me = expectStatus(await tenant.get('/portal/me'), 200).json<{
      leases: { id: number; account_reference: string; how_to_pay: string[] }[];
    }>();
    expect(me.leases[0]).toMatchObject({ id: a.leaseId, account_reference: ref, how_to_pay: lines });

    for (const res of [
      await staff.get(`/occupancy/${a.leaseId}/statement.pdf`),
      await tenant.get(`/portal/leases/${a.leaseId}/statement.pdf`),
    ]) {
      const text = pdfText(expectStatus(res, 200).rawPayload).replace(/\s+/g, ' ');
      expect(text).toContain(`Account number ${ref}`);
      expect(text).toContain('How to pay');
      for (const line of lines) expect(text).toContain(line);
    }

    const receipt = pdfText(
      expectStatus(await staff.get(`/payments/${a.paymentId}/receipt.pdf`), 200).rawPayload,
    );
    expect(receipt.replace(/\s+/g, ' ')).toContain(`Account number ${ref}`);

    const template = expectStatus(
      await staff.post('/message-templates', {
        name: 'Pay us',
        channel: 'sms',
        kind: 'overdue',
        body: 'Account {{account_reference}}. {{how_to_pay}}',
      }),
      201,
    ).json<{ id: number }>();
    const preview = expectStatus(
      await staff.post(`/message-templates/${template.id}/preview`, { occupancy_id: a.leaseId }),
      200,
    ).json<{ body: string }>();
    expect(preview.body).toBe(`Account ${ref}. ${lines.join('; ')}`);
  });
});
