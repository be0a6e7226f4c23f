import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKS_MESSAGES, METER_PLACE_MESSAGE, READING_MESSAGES, type RoleName } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validUnit } from '../../test/entities.ts';
import { xlsxRows } from '../../reliability/matrix.ts';

type Row = Record<string, unknown>;

/** `POST /imports` of a CSV file (multipart, as the browser sends it). */
const upload = (client: TestClient, entity: string, rows: readonly (readonly string[])[]) => {
  const boundary = '----kodiReadings';
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="entity"\r\n\r\n${entity}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="readings.csv"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n${rows.map((r) => r.join(',')).join('\r\n')}\r\n--${boundary}--\r\n`,
  );
  return client.post('/imports', body, { 'content-type': `multipart/form-data; boundary=${boundary}` });
};

/** A 1×1 png. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** Issue 28, first part: tariffs, meters, readings with their flags, the round and the import. */
describe(`meters, tariffs and readings (${testDriver})`, () => {
  let t: TestContext;
  let companyA: number;
  let admin: TestClient;
  let editor: TestClient;
  let viewer: TestClient;
  let stranger: TestClient;
  let propertyId: number;
  let unitA: Row;
  let unitB: Row;

  const as = async (role: RoleName, companyId = companyA) => {
    const u = await buildUser(t.database, { company_id: companyId, roles: [role] });
    const c = new TestClient(t.app);
    expect((await c.login(u.email, u.password)).statusCode).toBe(200);
    return c;
  };
  const make = async (c: TestClient, path: string, body: Row): Promise<Row> => {
    const res = await c.post(path, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json<Row>();
  };
  const list = async (c: TestClient, path: string): Promise<Row[]> => {
    const res = await c.get(path);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Row[]>();
  };

  beforeAll(async () => {
    t = await setupApp();
    companyA = (await buildCompany(t.database, { name: 'A Agency' })).id;
    const companyB = (await buildCompany(t.database, { name: 'B Agency' })).id;
    admin = await as('admin');
    editor = await as('editor');
    viewer = await as('viewer');
    stranger = await as('admin', companyB);
    propertyId = Number(
      (await make(admin, '/properties', { name: 'Acacia Court', address: '1 Acacia road' })).id,
    );
    unitA = await make(admin, '/units', { ...validUnit(), name: 'A1', property_id: propertyId });
    unitB = await make(admin, '/units', { ...validUnit(), name: 'A2', property_id: propertyId });
  }, 120_000);
  afterAll(async () => {
    await t?.app.close();
  });

  it('keeps tariffs with their blocks validated, as a list or as text, for admins to set', async () => {
    const water = await make(admin, '/tariffs', {
      name: 'NWSC domestic',
      kind: 'water',
      blocks: [{ up_to: 10, price: 1500 }, { up_to: 30, price: 2000 }, { price: 2500.5 }],
      fixed_charge: 3000,
      minimum_charge: 5000,
    });
    expect(water).toMatchObject({
      blocks: '10: 1500; 30: 2000; above: 2500.5',
      fixed_charge: 3000,
      minimum_charge: 5000,
      kind: 'water',
    });
    const flat = await make(admin, '/tariffs', { name: 'Umeme flat', kind: 'electricity', blocks: '750' });
    expect(flat).toMatchObject({ blocks: '750', fixed_charge: 0, minimum_charge: 0 });

    for (const [blocks, message] of [
      [[{ up_to: 30, price: 1 }, { up_to: 10, price: 2 }, { price: 3 }], BLOCKS_MESSAGES.increasing],
      [[{ up_to: 10, price: -1 }, { price: 3 }], BLOCKS_MESSAGES.price],
      [
        [
          { up_to: 10, price: 1 },
          { up_to: 20, price: 3 },
        ],
        BLOCKS_MESSAGES.last,
      ],
      [[], BLOCKS_MESSAGES.empty],
      ['ten at five', BLOCKS_MESSAGES.format],
    ] as const) {
      const res = await admin.post('/tariffs', { name: 'Bad', kind: 'water', blocks });
      expect(res.statusCode, JSON.stringify(blocks)).toBe(400);
      expect(res.json<{ fields: Row }>().fields.blocks).toBe(message);
    }
    const negative = await admin.post('/tariffs', {
      name: 'Bad',
      kind: 'water',
      blocks: '5',
      fixed_charge: -1,
    });
    expect(negative.json<{ fields: Row }>().fields.fixed_charge).toBe('Must be a positive number >= 0.');

    // editors read them but do not set prices; another company sees none of them
    expect((await editor.post('/tariffs', { name: 'E', kind: 'water', blocks: '1' })).statusCode).toBe(403);
    expect((await list(editor, '/tariffs?sort=name')).map((r) => r.name)).toEqual([
      'NWSC domestic',
      'Umeme flat',
    ]);
    expect((await list(viewer, '/tariffs?q=umeme')).map((r) => r.name)).toEqual(['Umeme flat']);
    expect(await list(stranger, '/tariffs')).toEqual([]);
    expect((await stranger.get(`/tariffs/${String(water.id)}`)).statusCode).toBe(404);
    const edited = await admin.put(`/tariffs/${String(water.id)}`, {
      ...water,
      blocks: '5: 1000; above: 1800',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Row>()).toMatchObject({ blocks: '5: 1000; above: 1800', version: 2 });
  });

  it('keeps meters of units (in the unit’s property) and master meters of buildings', async () => {
    const [tariff] = await list(admin, '/tariffs?sort=name');
    const meter = await make(editor, '/meters', {
      number: 'W-001',
      kind: 'water',
      unit_id: unitA.id,
      tariff_id: tariff?.id,
    });
    expect(meter).toMatchObject({
      property_id: propertyId,
      property_name: 'Acacia Court',
      unit_name: 'A1',
      unit_of_measure: 'm3',
      tariff_name: 'NWSC domestic',
      is_active: true,
      initial_reading: 0,
    });
    const power = await make(editor, '/meters', { number: 'E-001', kind: 'electricity', unit_id: unitA.id });
    expect(power.unit_of_measure).toBe('kwh');
    const master = await make(editor, '/meters', {
      number: 'W-MASTER',
      kind: 'water',
      property_id: propertyId,
      initial_reading: 1200.5,
      installed_on: '2025-01-01',
    });
    expect(master).toMatchObject({
      unit_id: null,
      unit_name: null,
      property_name: 'Acacia Court',
      initial_reading: 1200.5,
    });

    const nowhere = await editor.post('/meters', { number: 'X', kind: 'water' });
    expect(nowhere.json<{ fields: Row }>().fields).toEqual({ unit_id: METER_PLACE_MESSAGE });
    const otherProperty = await make(admin, '/properties', { name: 'Baobab', address: '2 Baobab road' });
    const elsewhere = await editor.post('/meters', {
      number: 'X',
      kind: 'water',
      unit_id: unitA.id,
      property_id: otherProperty.id,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(Object.keys(elsewhere.json<{ fields: Row }>().fields)).toEqual(['property_id']);
    const wrongTariff = await editor.post('/meters', {
      number: 'X',
      kind: 'gas',
      unit_id: unitA.id,
      tariff_id: tariff?.id,
    });
    expect(wrongTariff.json<{ fields: Row }>().fields.tariff_id).toBe(
      'The tariff is for water, not for gas.',
    );
    // another company's unit is not found; its admin sees no meter of ours
    const foreign = await stranger.post('/meters', { number: 'X', kind: 'water', unit_id: unitA.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<{ fields: Row }>().fields.unit_id).toBe('Not found.');
    expect(await list(stranger, '/meters')).toEqual([]);
    expect((await viewer.post('/meters', { number: 'V', kind: 'water', unit_id: unitA.id })).statusCode).toBe(
      403,
    );

    expect(
      (await list(viewer, `/meters?property_id=${propertyId}&sort=number`)).map((m) => m.number),
    ).toEqual(['E-001', 'W-001', 'W-MASTER']);
    expect((await list(viewer, '/meters?q=a1')).map((m) => m.number).sort()).toEqual(['E-001', 'W-001']);
    expect((await list(viewer, `/meters?property_id=${String(otherProperty.id)}`)).length).toBe(0);
    const exported = await viewer.get('/meters/export?fmt=xlsx&sort=number');
    expect(exported.statusCode, exported.body).toBe(200);
    const sheet = await xlsxRows(exported.rawPayload);
    expect(sheet[0]).toEqual(expect.arrayContaining(['Meter Number', 'Kind', 'Unit', 'Property', 'Tariff']));
    expect(sheet.map((row) => row[0])).toEqual(['Meter Number', 'E-001', 'W-001', 'W-MASTER']);
  });

  it('flags readings lower than the one before or over three times the usual, holds them until confirmed', async () => {
    const meters = await list(admin, `/meters?property_id=${propertyId}&sort=number`);
    const water = meters.find((m) => m.number === 'W-001') as Row;
    const read = (date: string, value: number, extra: Row = {}) =>
      editor.post('/meter_readings', { meter_id: water.id, reading_date: date, value, ...extra });

    const first = await read('2026-01-31', 10, { photo: `data:image/png;base64,${PNG}` });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<Row>()).toMatchObject({
      previous_value: 0,
      consumption: 10,
      flag: null,
      status: 'ready',
      meter_number: 'W-001',
      unit_name: 'A1',
      has_photo: true,
    });
    for (const [date, value] of [
      ['2026-02-28', 22],
      ['2026-03-31', 31],
    ] as const)
      expect((await read(date, value)).json<Row>()).toMatchObject({ status: 'ready', flag: null });
    // usual: (10 + 12 + 9) / 3 = 10.33; 34 more is over three times that (31 would not be)
    const high = (await read('2026-04-30', 65)).json<Row>();
    expect(high).toMatchObject({
      previous_value: 31,
      previous_date: '2026-03-31',
      consumption: 34,
      flag: 'high',
      status: 'flagged',
    });

    // a second reading of the day is refused
    const twice = await read('2026-04-30', 70);
    expect(twice.statusCode).toBe(400);
    expect(twice.json<{ fields: Row }>().fields.reading_date).toBe(READING_MESSAGES.sameDay);

    // corrected: judged again (no longer high)
    const corrected = await editor.put(`/meter_readings/${String(high.id)}`, { ...high, value: 40 });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json<Row>()).toMatchObject({ consumption: 9, flag: null, status: 'ready', version: 2 });
    // an older one corrected: the reading after it is judged again (22 → 30: March is 1, April 10)
    const february = `/meter_readings?filter=${encodeURIComponent(
      JSON.stringify({ field: 'reading_date', from: '2026-02-01', to: '2026-02-28' }),
    )}`;
    const older = (await list(admin, february))[0] as Row;
    expect(older.value).toBe(22);
    const olderFixed = await editor.put(`/meter_readings/${String(older.id)}`, { ...older, value: 30 });
    expect(olderFixed.json<Row>()).toMatchObject({ consumption: 20, status: 'ready' });
    const march = (await list(admin, `/meter_readings?sort=reading_date`)).find(
      (r) => r.reading_date === '2026-03-31',
    ) as Row;
    expect(march).toMatchObject({ previous_value: 30, consumption: 1, version: 2 });
    // a reading between two others: the one after it counts from it
    const between = (await read('2026-03-15', 35)).json<Row>();
    expect(between).toMatchObject({ previous_value: 30, consumption: 5, flag: null });
    expect((await editor.get(`/meter_readings/${String(march.id)}`)).json<Row>()).toMatchObject({
      previous_value: 35,
      previous_date: '2026-03-15',
      consumption: -4,
      flag: 'lower',
      status: 'flagged',
    });
    // deleted again (admins): March counts from February again
    expect((await admin.delete(`/meter_readings/${String(between.id)}`)).statusCode).toBe(204);
    expect((await editor.get(`/meter_readings/${String(march.id)}`)).json<Row>()).toMatchObject({
      previous_value: 30,
      consumption: 1,
      flag: null,
      status: 'ready',
    });

    const lower = (await read('2026-05-31', 35)).json<Row>();
    expect(lower).toMatchObject({ consumption: -5, flag: 'lower', status: 'flagged' });
    const flagged = await list(
      viewer,
      `/meter_readings?filter=${encodeURIComponent(JSON.stringify({ field: 'status', value: 'flagged' }))}`,
    );
    expect(flagged.map((r) => r.id)).toEqual([lower.id]);

    // confirmation: canEdit, of the company's flagged readings only
    expect((await viewer.post(`/meter_readings/${String(lower.id)}/confirm`)).statusCode).toBe(403);
    expect((await stranger.post(`/meter_readings/${String(lower.id)}/confirm`)).statusCode).toBe(404);
    const confirmed = await editor.post(`/meter_readings/${String(lower.id)}/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<Row>()).toMatchObject({ status: 'ready', flag: 'lower', version: 2 });
    const again = await editor.post(`/meter_readings/${String(lower.id)}/confirm`);
    expect(again.statusCode).toBe(409);
    expect(again.json<Row>().code).toBe('reading_not_flagged');

    // a reset counts again from its value: consumption 0, and the next counts from it
    const reset = (await read('2026-06-30', 3, { is_reset: true })).json<Row>();
    expect(reset).toMatchObject({ consumption: 0, flag: null, status: 'ready', is_reset: true });
    const after = (await read('2026-07-31', 11)).json<Row>();
    expect(after).toMatchObject({ previous_value: 3, consumption: 8, status: 'ready' });

    // a billed reading is never changed
    await t.database.query(`UPDATE meter_readings SET status = 'billed', billed_at = now() WHERE id = $1`, [
      after.id,
    ]);
    const billed = await editor.put(`/meter_readings/${String(after.id)}`, { ...after, value: 12 });
    expect(billed.statusCode).toBe(409);
    expect(billed.json<Row>().code).toBe('reading_billed');
    // nor a reading before it, nor is it deleted
    const reset2 = await editor.put(`/meter_readings/${String(reset.id)}`, { ...reset, value: 4 });
    expect(reset2.json<Row>()).toMatchObject({ code: 'reading_billed', error: READING_MESSAGES.laterBilled });
    expect((await admin.delete(`/meter_readings/${String(after.id)}`)).statusCode).toBe(409);

    // lists: by meter, by property, by period; another company sees none; a viewer does not read
    const byMeter = await list(
      viewer,
      `/meter_readings?filter=${encodeURIComponent(JSON.stringify({ field: 'meter_id', value: water.id }))}&sort=reading_date`,
    );
    expect(byMeter.map((r) => r.reading_date)).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
      '2026-07-31',
    ]);
    expect(byMeter[0]).not.toHaveProperty('photo');
    expect((await list(viewer, `/meter_readings?property_id=${propertyId}`)).length).toBe(7);
    expect(await list(stranger, '/meter_readings')).toEqual([]);
    expect(
      (await viewer.post('/meter_readings', { meter_id: water.id, reading_date: '2026-08-31', value: 12 }))
        .statusCode,
    ).toBe(403);
    const big = await read('2026-08-31', 12, { photo: 'A'.repeat(7_100_000) });
    expect(big.statusCode).toBe(400);
  });

  it('walks a property’s meters in a round, and saves a reading sent twice once', async () => {
    const round = await viewer.get(`/meter_readings/round?property_id=${propertyId}`);
    expect(round.statusCode, round.body).toBe(200);
    const meters = round.json<{ meters: Row[] }>().meters;
    // the master meter first, then by unit and number
    expect(meters.map((m) => m.number)).toEqual(['W-MASTER', 'E-001', 'W-001']);
    expect(meters[0]).toMatchObject({
      previous_value: 1200.5,
      previous_date: '2025-01-01',
      usual_consumption: null,
    });
    expect(meters[2]).toMatchObject({
      previous_value: 11,
      previous_date: '2026-07-31',
      usual_consumption: 9.5, // 8, 9, 9 and 12: the reset and the lower one count for no usual
    });
    expect((await stranger.get(`/meter_readings/round?property_id=${propertyId}`)).statusCode).toBe(404);

    const power = meters[1] as Row;
    const body = {
      idempotency_key: 'phone-1-0001',
      meter_id: power.meter_id,
      reading_date: '2026-08-01',
      value: 150,
    };
    const sent = await editor.post('/meter_readings/round', body);
    expect(sent.statusCode, sent.body).toBe(201);
    const resent = await editor.post('/meter_readings/round', body);
    expect(resent.statusCode).toBe(200);
    expect(resent.json<Row>().id).toBe(sent.json<Row>().id);
    // sent together (the phone back online twice at once): still once
    const both = await Promise.all([
      editor.post('/meter_readings/round', {
        ...body,
        idempotency_key: 'phone-1-0002',
        reading_date: '2026-09-01',
        value: 160,
      }),
      editor.post('/meter_readings/round', {
        ...body,
        idempotency_key: 'phone-1-0002',
        reading_date: '2026-09-01',
        value: 160,
      }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    const rows = await t.database.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM meter_readings WHERE meter_id = $1`,
      [power.meter_id],
    );
    expect(rows[0]?.n).toBe('2');
    // the generic create refuses a key used already
    const dup = await editor.post('/meter_readings', { ...body, reading_date: '2026-10-01' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<Row>().code).toBe('duplicate');
    const invalid = await editor.post('/meter_readings/round', {
      ...body,
      idempotency_key: 'phone-1-0003',
      value: -1,
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json<{ fields: Row }>().fields.value).toBe('Must be a positive number >= 0.');
    const tooFine = await editor.post('/meter_readings', {
      ...body,
      idempotency_key: 'phone-1-0005',
      value: 1.2345,
    });
    expect(tooFine.json<{ fields: Row }>().fields.value).toBe('At most 3 decimals.');
    expect(
      (await viewer.post('/meter_readings/round', { ...body, idempotency_key: 'phone-1-0004' })).statusCode,
    ).toBe(403);
  });

  it('imports readings by meter number or unit name, with the preview’s flags and refusals', async () => {
    const meter = await make(editor, '/meters', { number: 'W-002', kind: 'water', unit_id: unitB.id });
    const preview = await upload(admin, 'meter_readings', [
      ['Meter number', 'Date', 'Reading'],
      ['W-002', '2026-01-31', '5'],
      ['A2', '2026-02-28', '9'],
      ['W-002', '2026-03-31', '8'],
      ['NOPE', '2026-03-31', '1'],
    ]);
    expect(preview.statusCode, preview.body).toBe(201);
    const p = preview.json<Row>();
    expect(p).toMatchObject({ valid_rows: 3, invalid_rows: 1 });
    const commit = await admin.post(`/imports/${String(p.id)}/commit`);
    expect(commit.statusCode, commit.body).toBe(200);
    expect(commit.json<Row>()).toMatchObject({ created: 3 });
    const rows = await list(
      admin,
      `/meter_readings?filter=${encodeURIComponent(JSON.stringify({ field: 'meter_id', value: meter.id }))}&sort=reading_date`,
    );
    expect(rows.map((r) => [r.consumption, r.status])).toEqual([
      [5, 'ready'],
      [4, 'ready'],
      [-1, 'flagged'],
    ]);
  });

  it('makes each unit’s meter numbers its meters on upgrade (the migration’s statement)', async () => {
    const drizzle = fileURLToPath(new URL('../../../drizzle/', import.meta.url));
    const file = readdirSync(drizzle).find((f) => f.endsWith('_meters.sql'));
    if (!file) throw new Error('the meters migration is missing');
    const migration = readFileSync(`${drizzle}${file}`, 'utf8');
    const statement = migration.split('--> statement-breakpoint').at(-1) ?? '';
    expect(statement).toContain('INSERT INTO "meters"');
    const u = await make(admin, '/units', {
      ...validUnit(),
      name: 'Old',
      property_id: propertyId,
      water_meter_nbr: ' NW-77 ',
      electricity_meter_nbr: 'UM-88',
    });
    await make(admin, '/units', {
      ...validUnit(),
      name: 'Blank',
      property_id: propertyId,
      water_meter_nbr: '',
    });
    await t.database.query(`DELETE FROM meter_readings`);
    await t.database.query(`DELETE FROM meters`);
    await t.database.query(statement);
    const made = await t.database.query<Row>(
      `SELECT number, kind, unit_id, property_id, unit_of_measure, unit_name, property_name, is_active, initial_reading::text AS initial
         FROM meters ORDER BY number`,
    );
    expect(made).toEqual([
      {
        number: 'NW-77',
        kind: 'water',
        unit_id: u.id,
        property_id: propertyId,
        unit_of_measure: 'm3',
        unit_name: 'Old',
        property_name: 'Acacia Court',
        is_active: true,
        initial: '0.000',
      },
      {
        number: 'UM-88',
        kind: 'electricity',
        unit_id: u.id,
        property_id: propertyId,
        unit_of_measure: 'kwh',
        unit_name: 'Old',
        property_name: 'Acacia Court',
        is_active: true,
        initial: '0.000',
      },
    ]);
  });
});
