import { describe, expect, expectTypeOf, it } from 'vitest';
import { currencies, occupancy, payments, units } from './entities/index.ts';
import {
  answeredNullable,
  listRowSchema,
  recordSchema,
  type EntityListRow,
  type EntityRecord,
} from './record-schema.ts';

const unit = {
  id: 7,
  company_id: 1,
  name: 'Kololo Flat 3',
  address: 'Plot 5, Kololo',
  unit_type: 'apartment',
  status: 'available',
  monthly_rate: 1_200_000,
  weekly_rate: 300_000,
  daily_rate: 50_000,
  bedrooms: null,
  bathrooms: 1.5,
  size_sqft: null,
  water_meter_nbr: null,
  electricity_meter_nbr: null,
  amenities: null,
  description: null,
  property_id: null,
  property_name: null,
  external_ref: null,
  has_image_1: false,
  has_image_2: false,
  version: 1,
  created_at: '2026-11-22T08:30:00.000Z',
  updated_at: '2026-11-22T08:30:00.000Z',
};

describe('recordSchema and listRowSchema', () => {
  it('take a unit as the API answers it: numbers, enums, nulls, flags, ISO timestamps', () => {
    expect(listRowSchema(units).safeParse(unit).success).toBe(true);
    expect(
      recordSchema(units).safeParse({ ...unit, image_1_base64: 'iVBOR', image_2_base64: null }).success,
    ).toBe(true);
  });

  it('refuse what the API never answers: image data in a list, unknown fields, text amounts, bad values', () => {
    const wrong = (row: Record<string, unknown>) => listRowSchema(units).safeParse(row).success;
    expect(wrong({ ...unit, image_1_base64: 'iVBOR' })).toBe(false);
    expect(wrong({ ...unit, surprise: 1 })).toBe(false);
    expect(wrong({ ...unit, monthly_rate: '1200000.00' })).toBe(false);
    expect(wrong({ ...unit, status: 'Available' })).toBe(false);
    expect(wrong({ ...unit, name: null })).toBe(false);
    expect(wrong({ ...unit, has_image_1: null })).toBe(false);
    expect(wrong({ ...unit, created_at: '2026-11-22 08:30' })).toBe(false);
    const { company_id: _company, ...withoutCompany } = unit;
    expect(wrong(withoutCompany)).toBe(false);
  });

  it('answer dates as YYYY-MM-DD, never a lease document, and no company_id for installation-wide lists', () => {
    const shape = (s: unknown) => Object.keys((s as { shape: object }).shape);
    expect(shape(recordSchema(occupancy))).not.toContain('lease_doc');
    expect(shape(recordSchema(occupancy))).toEqual(
      expect.arrayContaining(['lease_doc_name', 'has_lease_doc']),
    );
    expect(shape(recordSchema(currencies))).not.toContain('company_id');
    const start = (
      recordSchema(occupancy) as unknown as {
        shape: Record<string, { safeParse: (v: unknown) => { success: boolean } }>;
      }
    ).shape.start_date;
    expect(start?.safeParse('2026-02-28').success).toBe(true);
    expect(start?.safeParse('2026-02-30').success).toBe(false);
  });

  it('answer null where a field is not required, unless the definition says otherwise', () => {
    const field = (name: string) => [...payments.fields, ...currencies.fields].find((f) => f.name === name)!;
    expect(answeredNullable(field('payment_method'))).toBe(true);
    expect(answeredNullable(field('amount_paid'))).toBe(false);
    // filled in by the server when not sent
    expect(answeredNullable(field('invoice_id'))).toBe(false);
    // required on a form, but a monetary union's currency has no country
    expect(answeredNullable(field('country'))).toBe(true);
  });

  it('type rows from the definitions', () => {
    expectTypeOf<EntityListRow<typeof units>['monthly_rate']>().toEqualTypeOf<number>();
    expectTypeOf<EntityListRow<typeof units>['status']>().toEqualTypeOf<
      'available' | 'occupied' | 'maintenance'
    >();
    expectTypeOf<EntityListRow<typeof units>['bedrooms']>().toEqualTypeOf<number | null>();
    expectTypeOf<EntityListRow<typeof units>['has_image_1']>().toEqualTypeOf<boolean>();
    expectTypeOf<EntityListRow<typeof units>>().not.toHaveProperty('image_1_base64');
    expectTypeOf<EntityRecord<typeof units>['image_1_base64']>().toEqualTypeOf<string | null>();
    expectTypeOf<EntityRecord<typeof payments>['tenant_name']>().toEqualTypeOf<string | null>();
    expectTypeOf<EntityRecord<typeof payments>['company_id']>().toEqualTypeOf<number>();
    expectTypeOf<EntityRecord<typeof occupancy>>().not.toHaveProperty('lease_doc');
    expectTypeOf<EntityRecord<typeof currencies>>().not.toHaveProperty('company_id');
    expectTypeOf<EntityRecord<typeof currencies>['country']>().toEqualTypeOf<string | null>();
  });
});
