import { describe, expect, it } from 'vitest';
import { toCents } from '@kodi/domain';
import { buildMatchIndex, candidatesOf, decideMatch, e164, normalKey, type MatchInput } from './matching.ts';

const row = (
  id: number,
  tenant: number,
  unit: number,
  phone: string,
  names: [string, string],
  unitName: string,
  more: Partial<{
    start: string;
    end: string | null;
    lease_ref: string;
    tenant_ref: string;
    tenant_code: string;
  }> = {},
) => ({
  id,
  tenant_id: tenant,
  unit_id: unit,
  start_date: more.start ?? '2026-01-01',
  end_date: more.end ?? null,
  lease_ref: more.lease_ref ?? null,
  phone,
  tenant_code: more.tenant_code ?? null,
  first_name: names[0],
  last_name: names[1],
  tenant_ref: more.tenant_ref ?? null,
  unit_name: unitName,
  unit_ref: null,
});

const index = buildMatchIndex(
  [
    row(1, 10, 100, '+256772100001', ['Grace', 'Namuli'], 'Block A - 12', { tenant_ref: 'TEN-0042' }),
    row(2, 20, 200, '0772100002', ['John', 'Okello'], 'B2'),
    row(3, 30, 300, '+256772100003', ['Sarah', 'Achieng'], 'C3'),
    row(4, 30, 400, '+256772100003', ['Sarah', 'Achieng'], 'C4'),
    // an ended lease and the current one of the same unit
    row(5, 50, 500, '+256772100005', ['Old', 'Tenant'], 'D5', { end: '2025-12-31', start: '2025-01-01' }),
    row(6, 60, 500, '+256772100006', ['New', 'Tenant'], 'D5'),
    // two tenants sharing a phone
    row(7, 70, 700, '+256772100007', ['Ann', 'One'], 'E7'),
    row(8, 80, 800, '+256772100007', ['Ben', 'Two'], 'E8'),
  ],
  256,
);

const RENT = toCents(500_000);
const line = (over: Partial<MatchInput>): MatchInput => ({
  date: '2026-02-01',
  amount: RENT,
  payer_phone: null,
  reference: null,
  ...over,
});
const decide = (l: MatchInput, autoPost = true, due: bigint[] = [RENT]) =>
  decideMatch(index, l, candidatesOf(index, l), () => due, autoPost);

describe('matching money received to leases', () => {
  it('puts phones in E.164 with the company’s dialling code, whatever their format', () => {
    for (const written of ['0772 100 001', '772100001', '256772100001', '+256 772 100001', '00256772100001'])
      expect(e164(written, 256)).toBe('+256772100001');
    expect(e164('12', 256)).toBeNull();
    expect(e164('0772100001', null)).toBeNull();
    expect(normalKey('Block A - 12')).toBe('blocka12');
  });

  it('phone and reference together: certain, matched only when the company posts automatically', () => {
    expect(decide(line({ payer_phone: '0772100001', reference: 'rent blocka12' }))).toMatchObject({
      status: 'matched',
      occupancy_id: 1,
      confidence: 95,
      certain: true,
    });
    expect(decide(line({ payer_phone: '0772100001', reference: 'BLOCK A 12' }), false)).toMatchObject({
      status: 'suggested',
      occupancy_id: 1,
      confidence: 95,
    });
    // the tenant's name and external ref are references too
    expect(decide(line({ payer_phone: '772100001', reference: 'grace namuli' })).status).toBe('matched');
    expect(decide(line({ payer_phone: '772100001', reference: 'ten 0042' })).status).toBe('matched');
  });

  it('a phone with exactly the amount due is certain; with another amount, suggested', () => {
    // a tenant's phone stored in national form is matched too
    expect(decide(line({ payer_phone: '+256772100002' }))).toMatchObject({
      status: 'matched',
      occupancy_id: 2,
    });
    expect(decide(line({ payer_phone: '+256772100002', amount: toCents(300_000) }))).toMatchObject({
      status: 'suggested',
      occupancy_id: 2,
      confidence: 70,
    });
  });

  it('a reference alone is suggested; the current lease of a unit, not an ended one', () => {
    expect(decide(line({ reference: 'D5' }))).toMatchObject({
      status: 'suggested',
      occupancy_id: 6,
      confidence: 60,
    });
    expect(decide(line({ reference: 'D5', date: '2025-06-01' }))).toMatchObject({ occupancy_id: 5 });
  });

  it('a tenant with two leases is never posted: suggested by tenant, or by the lease the reference names', () => {
    expect(decide(line({ payer_phone: '0772100003' }))).toMatchObject({
      status: 'suggested',
      occupancy_id: null,
      tenant_id: 30,
      certain: false,
    });
    expect(decide(line({ payer_phone: '0772100003', reference: 'C4' }))).toMatchObject({
      status: 'suggested',
      occupancy_id: 4,
      certain: false,
    });
  });

  it('anything else is unmatched: an unknown phone, a phone of two tenants, a wrong number', () => {
    expect(decide(line({ payer_phone: '0700000000', reference: 'hello' })).status).toBe('unmatched');
    expect(decide(line({ payer_phone: '0772100007' })).status).toBe('unmatched');
    expect(decide(line({ payer_phone: 'not a phone' })).status).toBe('unmatched');
    // the phone of two tenants, narrowed by a reference to one lease
    expect(decide(line({ payer_phone: '0772100007', reference: 'E8' }))).toMatchObject({ occupancy_id: 8 });
  });
});
