import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signWebhook } from '../../modules/companies/payment-webhook.ts';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { companyWith, expectStatus, setSettings } from '../../test/rent-cycle.ts';

const samples = path.join(import.meta.dirname, 'samples');
const sample = (name: string) => fs.readFileSync(path.join(samples, name));

const multipart = (fields: Record<string, string>, file?: { name: string; content: Buffer }) => {
  const boundary = `----kodiCollections${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
};

const upload = (client: TestClient, source: string, name: string, content: Buffer, mapping?: unknown) => {
  const { body, contentType } = multipart(
    { ...(source ? { source } : {}), ...(mapping ? { mapping: JSON.stringify(mapping) } : {}) },
    { name, content },
  );
  return client.post('/statements', body, { 'content-type': contentType });
};

type Line = {
  id: number;
  transaction_id: string;
  status: string;
  confidence: number;
  occupancy_id: number | null;
  tenant_id: number | null;
  tenant_name: string | null;
  unit_name: string | null;
  payment_id: number | null;
  payment_ids: number[];
  amount: number;
  date: string;
  direction: string;
};
type Payment = {
  id: number;
  status: string;
  payment_method: string;
  reference_number: string;
  payment_date: string;
  amount_paid: number;
  payment_serial: string;
  receipt_number: string | null;
  occupancy_id: number;
};

const linesOf = async (client: TestClient, query = 'page_size=100') =>
  expectStatus(await client.get(`/statement-lines?${query}`), 200).json<Line[]>();
const byTx = (lines: Line[], tx: string) => {
  const l = lines.find((x) => x.transaction_id === tx);
  if (!l) throw new Error(`no line ${tx}`);
  return l;
};

/** The fixture: five leases of four tenants (Sarah has two), rent 500,000 a month from 1 January 2026. */
const fixture = async (client: TestClient) => {
  const lease = async (first: string, last: string, phone: string, unit: string) => {
    const u = expectStatus(await client.post('/units', validUnit({ name: unit })), 201).json<{
      id: number;
    }>();
    const tenants = expectStatus(
      await client.get(`/tenants?q=${encodeURIComponent(`${first} ${last}`)}`),
      200,
    ).json<{ id: number; phone: string }[]>();
    const t =
      tenants.find((x) => x.phone === phone) ??
      expectStatus(
        await client.post(
          '/tenants',
          validTenant({
            first_name: first,
            last_name: last,
            phone,
            email: `${first.toLowerCase()}@example.com`,
          }),
        ),
        201,
      ).json<{ id: number }>();
    const o = expectStatus(
      await client.post('/occupancy', {
        tenant_id: t.id,
        unit_id: u.id,
        start_date: '2026-01-01',
        rate: 500_000,
        rent_cycle: 'monthly',
      }),
      201,
    ).json<{ id: number }>();
    return { id: o.id, tenant_id: t.id, unit_id: u.id };
  };
  return {
    grace: await lease('Grace', 'Namuli', '+256772100001', 'A1'),
    john: await lease('John', 'Okello', '+256772100002', 'B2'),
    sarahC3: await lease('Sarah', 'Achieng', '+256772100003', 'C3'),
    sarahC4: await lease('Sarah', 'Achieng', '+256772100003', 'C4'),
    peter: await lease('Peter', 'Mugisha', '+256772100005', 'D5'),
  };
};

const paymentsOf = async (client: TestClient) =>
  expectStatus(await client.get('/payments?page_size=100&sort=id'), 200).json<Payment[]>();

describe(`collections: statements, matching, the payment webhook (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('refuses a statement whose columns do not fit its source, and recognises one sent without a source (issue 26)', async () => {
    const { client } = await companyWith(t);
    const refusal = async (source: string, file: string) => {
      const res = await upload(client, source, file, sample(file));
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ error: string; fields: Record<string, string> }>();
    };
    expect(await refusal('airtel_money', 'mtn_momo.csv')).toMatchObject({
      error:
        'This does not look like an Airtel Money statement: no "Transaction ID" or "Sender MSISDN" columns.',
      fields: { file: expect.stringContaining('Airtel Money') },
    });
    expect((await refusal('mtn_momo', 'airtel_money.csv')).error).toBe(
      'This does not look like an MTN MoMo statement: no "From" column.',
    );
    expect((await refusal('mtn_momo', 'bank.csv')).error).toBe(
      'This does not look like an MTN MoMo statement: no "Transaction Id", "Amount" or "From" columns.',
    );
    expect((await refusal('bank', 'airtel_money.csv')).error).toBe(
      'This does not look like a bank statement: no "Reference No" column.',
    );
    // nothing was kept of the files refused
    expect(await linesOf(client)).toEqual([]);
    // without a source: recognised by its columns
    for (const [file, source] of [
      ['mtn_momo.csv', 'mtn_momo'],
      ['airtel_money.csv', 'airtel_money'],
      ['bank.csv', 'bank'],
    ] as const) {
      const res = await upload(client, '', file, sample(file));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<{ source: string }>().source).toBe(source);
    }
    // a file of no known layout needs its source, or a mapping of its columns
    const unknown = await upload(client, '', 'custom.csv', sample('custom.csv'));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      fields: { source: expect.stringContaining('does not recognise') },
    });
    const mapped = await upload(client, '', 'custom.csv', sample('custom.csv'), {
      Txn: 'transaction_id',
      When: 'date',
      Paid: 'amount',
    });
    expect(mapped.statusCode, mapped.body).toBe(201);
    expect(mapped.json<{ source: string }>().source).toBe('custom');
  });

  it('says why each line is matched, suggested or left, and learns from a match by hand (issue 26)', async () => {
    const { client } = await companyWith(t);
    const f = await fixture(client);
    // Paul shares Peter's phone
    const paulUnit = expectStatus(await client.post('/units', validUnit({ name: 'E6' })), 201).json<{
      id: number;
    }>();
    const paul = expectStatus(
      await client.post(
        '/tenants',
        validTenant({
          first_name: 'Paul',
          last_name: 'Mugisha',
          phone: '+256772100005',
          email: 'paul@example.com',
        }),
      ),
      201,
    ).json<{ id: number }>();
    expectStatus(
      await client.post('/occupancy', {
        tenant_id: paul.id,
        unit_id: paulUnit.id,
        start_date: '2026-01-01',
        rate: 500_000,
      }),
      201,
    );
    const HEADER =
      'Id,External Id,Date,Status,Type,Provider Category,Information,Note/Message,From,From Name,To,To Name,Initiated By,On Behalf Of,Amount,Currency,Fee,Balance';
    const mtn = (rows: [string, string, string, string, number][]) =>
      Buffer.from(
        [
          HEADER,
          ...rows.map(
            ([id, date, note, from, amount]) =>
              `${id},,${date},Successful,PAYMENT,,Payment received,${note},${from},PAYER,256700500500,KODI,${from},,${amount},UGX,0,0`,
          ),
        ].join('\n'),
      );
    const first = await upload(
      client,
      'mtn_momo',
      'feb.csv',
      mtn([
        ['L1', '2026-02-01 09:00:00', 'rent', '256772999001', 500_000],
        ['L2', '2026-02-02 09:00:00', 'rent', '256772999001', 500_000],
        ['L3', '2026-02-03 09:00:00', 'rent', '256772100002', 800_000],
        ['L4', '2026-02-04 09:00:00', 'rent', '256772100005', 500_000],
        ['L5', '2026-02-05 09:00:00', 'rent', '256772100003', 500_000],
      ]),
    );
    expect(first.statusCode, first.body).toBe(201);
    type Reasoned = Line & { match_reason: string | null };
    let lines = (await linesOf(client)) as Reasoned[];
    const reason = (tx: string) => [byTx(lines, tx).status, (byTx(lines, tx) as Reasoned).match_reason];
    expect(reason('L1')).toEqual(['unmatched', 'No tenant has this phone']);
    expect(reason('L3')).toEqual([
      'suggested',
      expect.stringMatching(/^Amount differs from the rent due \(UGX\s500,000\)$/),
    ]);
    expect(byTx(lines, 'L3').occupancy_id).toBe(f.john.id);
    expect(reason('L4')).toEqual(['unmatched', 'Two tenants share this phone']);
    expect(reason('L5')).toEqual([
      'suggested',
      'The tenant has several leases: split the amount between them',
    ]);
    // staff match L1 by hand to Grace's lease: L2, of the same phone, follows it (suggested)
    const l1 = byTx(lines, 'L1');
    expectStatus(
      await client.post(`/statement-lines/${l1.id}/match`, {
        allocations: [{ occupancy_id: f.grace.id, amount: 500_000 }],
      }),
      200,
    );
    lines = (await linesOf(client)) as Reasoned[];
    expect(byTx(lines, 'L2')).toMatchObject({
      status: 'suggested',
      occupancy_id: f.grace.id,
      match_reason: 'Matched by hand before: a line of this phone went to this lease',
    });
    // the next statement's line of that phone is posted at once where the company posts automatically
    await setSettings(client, { auto_post_matches: true });
    const before = (await paymentsOf(client)).length;
    const second = await upload(
      client,
      'mtn_momo',
      'mar.csv',
      mtn([['L6', '2026-03-01 09:00:00', 'march', '0772 999001', 500_000]]),
    );
    expect(second.json()).toMatchObject({ matched: 1 });
    lines = (await linesOf(client)) as Reasoned[];
    expect(byTx(lines, 'L6')).toMatchObject({ status: 'matched', occupancy_id: f.grace.id });
    const made = await paymentsOf(client);
    expect(made.length).toBe(before + 1);
    expect(made.at(-1)).toMatchObject({
      occupancy_id: f.grace.id,
      amount_paid: 500_000,
      status: 'completed',
    });
  });

  it('reads an MTN MoMo statement: each rule of the matching, outgoing lines ignored, failed ones skipped', async () => {
    const { client } = await companyWith(t);
    const f = await fixture(client);
    const res = expectStatus(await upload(client, 'mtn_momo', 'momo.csv', sample('mtn_momo.csv')), 201);
    expect(res.json()).toMatchObject({
      source: 'mtn_momo',
      lines: 6,
      new_lines: 6,
      duplicate_lines: 0,
      matched: 0,
      suggested: 4,
      unmatched: 1,
    });
    const lines = await linesOf(client);
    // phone (written 256…, without its +) and reference together: certain, suggested while auto-post is off
    expect(byTx(lines, '10001')).toMatchObject({
      status: 'suggested',
      confidence: 95,
      occupancy_id: f.grace.id,
      tenant_name: 'Grace Namuli',
      unit_name: 'A1',
      payment_id: null,
      date: '2026-02-01',
      amount: 500_000,
    });
    // phone alone (written 0772…) with another amount than the rent due
    expect(byTx(lines, '10002')).toMatchObject({
      status: 'suggested',
      confidence: 70,
      occupancy_id: f.john.id,
    });
    // a tenant with two leases: the tenant, no lease (the user splits it)
    expect(byTx(lines, '10003')).toMatchObject({
      status: 'suggested',
      confidence: 50,
      occupancy_id: null,
      tenant_id: f.sarahC3.tenant_id,
      tenant_name: 'Sarah Achieng',
    });
    // the reference alone ('D5 rent')
    expect(byTx(lines, '10004')).toMatchObject({
      status: 'suggested',
      confidence: 60,
      occupancy_id: f.peter.id,
    });
    expect(byTx(lines, '10005')).toMatchObject({ status: 'unmatched', occupancy_id: null, tenant_id: null });
    expect(byTx(lines, '10006')).toMatchObject({ status: 'ignored', direction: 'out', amount: 50_000 });
    expect(lines.some((l) => l.transaction_id === '10007')).toBe(false);
    // open lines first: unmatched, then suggested
    expect(lines[0]?.status).toBe('unmatched');
    expect(lines.slice(1, 5).every((l) => l.status === 'suggested')).toBe(true);
    // filters
    expect((await linesOf(client, 'status=suggested')).length).toBe(4);
    expect((await linesOf(client, 'q=achieng')).map((l) => l.transaction_id)).toEqual(['10003']);
    expect((await linesOf(client, `statement_id=${res.json<{ id: number }>().id}`)).length).toBe(6);
    expect(await paymentsOf(client)).toEqual([]);
  });

  it('matches a payer by any spelling of its phone, against tenants’ phones saved or written before', async () => {
    const { client } = await companyWith(t);
    const f = await fixture(client);
    // John's phone as typed before phones were saved in E.164; Peter's, a Kenyan number, with his code
    await t.database.query(`UPDATE tenants SET phone = '0772 100 002', country_code = NULL WHERE id = $1`, [
      f.john.tenant_id,
    ]);
    await t.database.query(`UPDATE tenants SET phone = '0712 100 005', country_code = '+254' WHERE id = $1`, [
      f.peter.tenant_id,
    ]);
    const payers: [from: string, lease: number | null][] = [
      ['0772 100 001', f.grace.id],
      ['256772100001', f.grace.id],
      ['+256 772 100 001', f.grace.id],
      ['772100001', f.grace.id],
      ['00256 772 100001', f.grace.id],
      ['+256772100002', f.john.id],
      ['0772-100-002', f.john.id],
      ['+254 712 100 005', f.peter.id],
      // a national number is the company's country's: +256712100005 is no one's
      ['0712 100 005', null],
    ];
    const header =
      'Id,External Id,Date,Status,Type,Provider Category,Information,Note/Message,From,From Name,To,To Name,Initiated By,On Behalf Of,Amount,Currency,Fee,Balance';
    const rows = payers.map(
      ([from], i) =>
        `${20001 + i},,2026-02-0${1 + (i % 9)} 09:00:00,Successful,PAYMENT,,Payment received,thanks,${from},PAYER ${i},256700500500,KODI PROPERTIES,${from},,500000,UGX,0,0`,
    );
    expectStatus(
      await upload(client, 'mtn_momo', 'momo.csv', Buffer.from([header, ...rows].join('\n'))),
      201,
    );
    const lines = await linesOf(client);
    for (const [i, [from, lease]] of payers.entries())
      expect(byTx(lines, String(20001 + i)).occupancy_id, from).toBe(lease);
    expect(byTx(lines, '20009').status).toBe('unmatched');
  });

  it('posts certain matches at once with auto_post_matches, never a tenant with two leases', async () => {
    const { client } = await companyWith(t);
    const f = await fixture(client);
    await setSettings(client, { auto_post_matches: true });
    expect(expectStatus(await client.get('/company-settings'), 200).json()).toMatchObject({
      auto_post_matches: true,
    });
    const res = expectStatus(await upload(client, 'mtn_momo', 'momo.csv', sample('mtn_momo.csv')), 201);
    expect(res.json()).toMatchObject({ matched: 1, suggested: 3, unmatched: 1 });
    const lines = await linesOf(client);
    const first = byTx(lines, '10001');
    expect(first).toMatchObject({ status: 'matched', occupancy_id: f.grace.id });
    expect(byTx(lines, '10003').status).toBe('suggested');
    const payments = await paymentsOf(client);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      id: first.payment_id,
      status: 'completed',
      payment_method: 'mobilemoney',
      reference_number: '10001',
      payment_date: '2026-02-01',
      amount_paid: 500_000,
      occupancy_id: f.grace.id,
    });
    expect(payments[0]?.payment_serial).toMatch(/^PAY-\d{6}$/);
    expect(payments[0]?.receipt_number).toMatch(/^RCT-\d{6}$/);

    // Airtel: a phone without its 0 and exactly the rent due; a phone and a reference together
    const airtel = expectStatus(
      await upload(client, 'airtel_money', 'airtel.csv', sample('airtel_money.csv')),
      201,
    );
    expect(airtel.json()).toMatchObject({ lines: 3, new_lines: 3, matched: 2, suggested: 0, unmatched: 0 });
    const after = await linesOf(client);
    expect(byTx(after, 'AT260203001')).toMatchObject({
      status: 'matched',
      occupancy_id: f.john.id,
      confidence: 90,
    });
    expect(byTx(after, 'AT260203002')).toMatchObject({
      status: 'matched',
      occupancy_id: f.peter.id,
      confidence: 95,
    });
    expect(byTx(after, 'AT260204003')).toMatchObject({ status: 'ignored', direction: 'out' });
    expect(await paymentsOf(client)).toHaveLength(3);
  });

  it('reads a bank statement (credit and debit columns), an xlsx export and a custom layout with its mapping', async () => {
    const { client } = await companyWith(t);
    const f = await fixture(client);
    expect(
      expectStatus(await upload(client, 'bank', 'bank.csv', sample('bank.csv')), 201).json(),
    ).toMatchObject({
      lines: 3,
      suggested: 1,
      unmatched: 1,
    });
    const lines = await linesOf(client);
    // no phone: the tenant's name and the unit in the description name one lease
    expect(byTx(lines, 'FT26036ABC01')).toMatchObject({
      status: 'suggested',
      confidence: 60,
      occupancy_id: f.grace.id,
      date: '2026-02-05',
    });
    expect(byTx(lines, 'CHG2602061')).toMatchObject({ status: 'ignored', amount: 15_000 });
    expect(byTx(lines, 'DEP2602071')).toMatchObject({ status: 'unmatched', amount: 1_200_000 });

    // the MTN layout as an xlsx workbook
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Statement');
    sheet.addRow(['MTN MoMo merchant statement']);
    sheet.addRow([]);
    sheet.addRow(['Id', 'Date', 'Status', 'Note/Message', 'From', 'From Name', 'Amount', 'Currency']);
    sheet.addRow([
      'X-1',
      new Date(Date.UTC(2026, 1, 9)),
      'Successful',
      'B2',
      '256772100002',
      'JOHN',
      123_000,
      'UGX',
    ]);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(expectStatus(await upload(client, 'mtn_momo', 'momo.xlsx', content), 201).json()).toMatchObject({
      lines: 1,
      suggested: 1,
    });
    expect(byTx(await linesOf(client), 'X-1')).toMatchObject({
      date: '2026-02-09',
      confidence: 95,
      occupancy_id: f.john.id,
    });

    // custom: refused without a mapping, read with one
    const bad = expectStatus(await upload(client, 'custom', 'c.csv', sample('custom.csv')), 400);
    expect(bad.json<{ fields: Record<string, string> }>().fields.mapping).toBeDefined();
    const mapping = {
      Txn: 'transaction_id',
      When: 'date',
      Paid: 'amount',
      Mobile: 'payer_phone',
      Name: 'payer_name',
      Memo: 'reference',
    };
    expect(
      expectStatus(await upload(client, 'custom', 'c.csv', sample('custom.csv'), mapping), 201).json(),
    ).toMatchObject({ lines: 2, new_lines: 2, suggested: 1 });
    const custom = await linesOf(client);
    expect(byTx(custom, 'CU-1')).toMatchObject({
      status: 'suggested',
      occupancy_id: f.grace.id,
      confidence: 95,
    });
    expect(byTx(custom, 'CU-2')).toMatchObject({ status: 'ignored', direction: 'out', amount: 30_000 });

    // an amount with more than 2 decimals refuses the file at its row
    const cents = Buffer.from('Txn,When,Paid\r\nD-1,2026-02-08,1000.555\r\n');
    const refused = expectStatus(
      await upload(client, 'custom', 'd.csv', cents, { Txn: 'transaction_id', When: 'date', Paid: 'amount' }),
      400,
    );
    expect(refused.json<{ error: string }>().error).toContain('Row 2');
    // a real date money cannot have come in on refuses the file at its row, nothing kept (issue 23)
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    for (const [when, shown] of [
      ['9999-12-31', '9999-12-31'],
      ['0001-01-01', '0001-01-01'],
      ['1999-12-31', '1999-12-31'],
      [day(3), day(3)],
      ['80000', '2119-01-11'], // an Excel serial
      ['31-Dec-9999', '9999-12-31'],
    ]) {
      const linesBefore = (await linesOf(client)).length;
      const far = Buffer.from(`Txn,When,Paid\r\nF-1,2026-02-08,1000\r\nF-2,${when},1000\r\n`);
      const res = expectStatus(
        await upload(client, 'custom', 'f.csv', far, { Txn: 'transaction_id', When: 'date', Paid: 'amount' }),
        400,
      );
      expect(res.json<{ error: string }>().error, when).toBe(
        `Row 3: the date ${shown} is before 2000-01-01 or more than a day ahead.`,
      );
      expect(await linesOf(client)).toHaveLength(linesBefore);
    }
    // today and tomorrow are days money comes in on
    expectStatus(
      await upload(
        client,
        'custom',
        'g.csv',
        Buffer.from(`Txn,When,Paid\r\nG-1,${day(0)},1000\r\nG-2,${day(1)},1000\r\nG-3,2000-01-01,1000\r\n`),
        { Txn: 'transaction_id', When: 'date', Paid: 'amount' },
      ),
      201,
    );
    // a file that is not this provider's statement
    const wrong = expectStatus(await upload(client, 'mtn_momo', 'bank.csv', sample('bank.csv')), 400);
    expect(wrong.json<{ code: string }>().code).toBe('validation_failed');
  });

  it('undoes a statement (company admins): its payments voided, its lines and itself removed, the file uploaded again', async () => {
    const { client, signIn } = await companyWith(t);
    const f = await fixture(client);
    await setSettings(client, { auto_post_matches: true });
    const first = expectStatus(
      await upload(client, 'mtn_momo', 'momo.csv', sample('mtn_momo.csv')),
      201,
    ).json<{
      id: number;
    }>();
    const made = await paymentsOf(client);
    expect(made.map((p) => p.occupancy_id)).toEqual([f.grace.id]);
    const grace = made[0] as Payment;
    // by hand as well: a suggested line matched, and a payment of its own (not the statement's)
    const lines = await linesOf(client);
    expectStatus(
      await client.post(`/statement-lines/${byTx(lines, '10002').id}/match`, {
        allocations: [{ occupancy_id: f.john.id, amount: byTx(lines, '10002').amount }],
      }),
      200,
    );
    const own = expectStatus(
      await client.post('/payments', {
        tenant_id: f.peter.tenant_id,
        unit_id: f.peter.unit_id,
        payment_date: '2026-02-01',
        amount_paid: 1000,
        status: 'completed',
        effective_start_date: '2026-02-01',
        effective_end_date: '2026-02-28',
      }),
      201,
    ).json<Payment>();
    const statementPayments = (await paymentsOf(client)).filter((p) => p.id !== own.id);
    expect(statementPayments).toHaveLength(2);

    // who may: company admins (and admins); editors and viewers 403; another company's statement 404
    expectStatus(await (await signIn(['editor'])).delete(`/statements/${first.id}`), 403);
    expectStatus(await (await signIn(['viewer'])).delete(`/statements/${first.id}`), 403);
    const stranger = await companyWith(t);
    expectStatus(await stranger.client.delete(`/statements/${first.id}`), 404);
    expectStatus(await client.delete('/statements/999999'), 404);

    const companyAdmin = await signIn(['company_admin']);
    const undone = expectStatus(await companyAdmin.delete(`/statements/${first.id}`), 200).json<{
      lines_removed: number;
      payments_voided: number[];
    }>();
    expect(undone.lines_removed).toBe(6);
    expect(undone.payments_voided.sort((a, b) => a - b)).toEqual(statementPayments.map((p) => p.id));
    // the payments are voided, never deleted: their receipts kept, the reason given; the other one stays
    const voidFilter = encodeURIComponent(JSON.stringify({ field: 'status', value: 'void' }));
    const voided = expectStatus(await client.get(`/payments?sort=id&filter=${voidFilter}`), 200).json<
      (Payment & { void_reason: string })[]
    >();
    expect(voided.map((p) => [p.id, p.void_reason, p.receipt_number])).toEqual(
      statementPayments.map((p) => [p.id, 'Statement deleted', p.receipt_number]),
    );
    expect((await paymentsOf(client)).map((p) => p.id)).toEqual([own.id]);
    expect(voided.find((p) => p.id === grace.id)?.status).toBe('void');
    expect(await linesOf(client)).toEqual([]);
    const statements = expectStatus(await client.get('/statements'), 200).json<{ id: number }[]>();
    expect(statements.map((s) => s.id)).not.toContain(first.id);
    expectStatus(await client.delete(`/statements/${first.id}`), 404);

    // the same file again: every line new, matched and posted again; John's line too now, since
    // staff matched a line of his phone by hand (issue 26: the matching remembers it)
    const again = expectStatus(await upload(client, 'mtn_momo', 'momo.csv', sample('mtn_momo.csv')), 201);
    expect(again.json()).toMatchObject({ lines: 6, new_lines: 6, duplicate_lines: 0, matched: 2 });
    const reposted = (await paymentsOf(client)).filter((p) => p.id !== own.id);
    expect(reposted.map((p) => p.occupancy_id)).toEqual([f.grace.id, f.john.id]);
    expect(reposted[0]?.receipt_number).not.toBe(grace.receipt_number);
  });

  it('keeps every line once: overlapping statements change nothing twice', async () => {
    const { client } = await companyWith(t);
    await fixture(client);
    await setSettings(client, { auto_post_matches: true });
    expectStatus(await upload(client, 'mtn_momo', 'momo.csv', sample('mtn_momo.csv')), 201);
    const again = expectStatus(await upload(client, 'mtn_momo', 'momo.csv', sample('mtn_momo.csv')), 201);
    expect(again.json()).toMatchObject({ lines: 6, new_lines: 0, duplicate_lines: 6, matched: 0 });
    // an overlapping statement: two lines seen, one new
    const text = sample('mtn_momo.csv').toString('utf8').split('\n');
    const overlap = [
      text[0],
      text[1],
      text[2],
      '10008,,2026-02-06 09:00:00,Successful,PAYMENT,,Payment received,B2,256772100002,JOHN OKELLO,,,,,500000,UGX,0,0',
    ].join('\n');
    expect(
      expectStatus(await upload(client, 'mtn_momo', 'momo2.csv', Buffer.from(overlap)), 201).json(),
    ).toMatchObject({ lines: 3, new_lines: 1, duplicate_lines: 2, matched: 1 });
    expect(await linesOf(client)).toHaveLength(7);
    expect(await paymentsOf(client)).toHaveLength(2);
    const statements = expectStatus(await client.get('/statements'), 200).json<
      { lines: number; new_lines: number; received: number; matched: number; posted: number }[]
    >();
    expect(statements).toHaveLength(3);
    expect(statements[2]).toMatchObject({
      new_lines: 6,
      received: 2_500_000,
      matched: 500_000,
      posted: 500_000,
    });
    expect(statements[0]).toMatchObject({ new_lines: 1, received: 500_000, posted: 500_000 });
    // transaction ids with quotes, commas and backslashes are found again too; the same id from
    // another source (10001, from the MoMo statement) is another line
    const tricky = Buffer.from(
      'Txn,When,Paid\r\n"Q""1,x\\",2026-02-08,1000\r\n"{Q2}",2026-02-08,2000\r\n10001,2026-02-08,3000\r\n',
    );
    const map = { Txn: 'transaction_id', When: 'date', Paid: 'amount' };
    expect(expectStatus(await upload(client, 'custom', 't.csv', tricky, map), 201).json()).toMatchObject({
      new_lines: 3,
    });
    expect(expectStatus(await upload(client, 'custom', 't.csv', tricky, map), 201).json()).toMatchObject({
      new_lines: 0,
      duplicate_lines: 3,
    });
    expect(byTx(await linesOf(client, `q=${encodeURIComponent('q"1')}`), 'Q"1,x\\').amount).toBe(1000);
    expect((await linesOf(client)).filter((l) => l.transaction_id === '10001')).toHaveLength(2);
    expect(await linesOf(client)).toHaveLength(10);
  });

  it('matches by hand, splits across leases, ignores, and unmatches (admins) by voiding the payments', async () => {
    const { client, signIn } = await companyWith(t);
    const f = await fixture(client);
    expectStatus(await upload(client, 'mtn_momo', 'momo.csv', sample('mtn_momo.csv')), 201);
    const lines = await linesOf(client);
    const unknown = byTx(lines, '10005');
    const sarah = byTx(lines, '10003');
    const editor = await signIn(['editor']);

    expectStatus(
      await editor.post(`/statement-lines/${unknown.id}/match`, {
        allocations: [{ occupancy_id: f.john.id, amount: 199_999.999 }],
      }),
      400,
    );
    // the allocations must add up to the line
    const short = expectStatus(
      await editor.post(`/statement-lines/${unknown.id}/match`, {
        allocations: [{ occupancy_id: f.john.id, amount: 150_000 }],
      }),
      400,
    );
    expect(short.json<{ fields: Record<string, string> }>().fields.allocations).toContain('200,000.00');
    const matched = expectStatus(
      await editor.post(`/statement-lines/${unknown.id}/match`, {
        allocations: [{ occupancy_id: f.john.id, amount: 200_000 }],
      }),
      200,
    ).json<Line>();
    expect(matched).toMatchObject({ status: 'matched', occupancy_id: f.john.id, tenant_name: 'John Okello' });
    expect(matched.payment_ids).toHaveLength(1);
    expectStatus(
      await editor.post(`/statement-lines/${unknown.id}/match`, {
        allocations: [{ occupancy_id: f.john.id, amount: 200_000 }],
      }),
      409,
    );

    // split Sarah's 1,000,000 across her two leases
    const split = expectStatus(
      await editor.post(`/statement-lines/${sarah.id}/match`, {
        allocations: [
          { occupancy_id: f.sarahC3.id, amount: 600_000 },
          { occupancy_id: f.sarahC4.id, amount: 400_000 },
        ],
      }),
      200,
    ).json<Line>();
    expect(split.payment_ids).toHaveLength(2);
    const payments = await paymentsOf(client);
    expect(payments.map((p) => [p.occupancy_id, p.amount_paid, p.reference_number, p.status])).toEqual([
      [f.john.id, 200_000, '10005', 'completed'],
      [f.sarahC3.id, 600_000, '10003', 'completed'],
      [f.sarahC4.id, 400_000, '10003', 'completed'],
    ]);
    expect(new Set(payments.map((p) => p.receipt_number)).size).toBe(3);

    // ignore with a reason; a matched line must be unmatched first
    const ignored = expectStatus(
      await editor.post(`/statement-lines/${byTx(lines, '10002').id}/ignore`, {
        reason: 'School fees, not rent',
      }),
      200,
    ).json<{ status: string; ignore_reason: string }>();
    expect(ignored).toMatchObject({
      status: 'ignored',
      ignore_reason: 'School fees, not rent',
      occupancy_id: null,
      tenant_id: null,
    });
    expectStatus(await editor.post(`/statement-lines/${unknown.id}/ignore`, { reason: 'x' }), 409);
    expectStatus(await editor.post(`/statement-lines/${unknown.id}/ignore`, { reason: '' }), 400);

    // unmatch: admins only; the payments are voided (status void, issue 25), never deleted, their numbers kept
    expectStatus(await editor.post(`/statement-lines/${sarah.id}/unmatch`), 403);
    const open = expectStatus(await client.post(`/statement-lines/${sarah.id}/unmatch`), 200).json<Line>();
    expect(open).toMatchObject({ status: 'suggested', payment_ids: [] });
    const voidFilter = encodeURIComponent(JSON.stringify({ field: 'status', value: 'void' }));
    const after = [
      ...(await paymentsOf(client)),
      ...expectStatus(await client.get(`/payments?page_size=100&sort=id&filter=${voidFilter}`), 200).json<
        Payment[]
      >(),
    ].sort((a, b) => a.id - b.id);
    expect(after).toHaveLength(3);
    expect(after.filter((p) => p.status === 'void').map((p) => p.occupancy_id)).toEqual([
      f.sarahC3.id,
      f.sarahC4.id,
    ]);
    expect(after.map((p) => p.receipt_number)).toEqual(payments.map((p) => p.receipt_number));
    const history = expectStatus(await client.get(`/payments/${after[1]?.id}/history`), 200).json<
      { action: string }[]
    >();
    expect(history.map((h) => h.action)).toEqual(['update', 'create']);
    // a voided payment cannot be deleted away: the line still names it
    expectStatus(await client.delete(`/payments/${after[1]?.id}`), 409);
    // matched again after the unmatch
    expectStatus(
      await editor.post(`/statement-lines/${sarah.id}/match`, {
        allocations: [{ occupancy_id: f.sarahC3.id, amount: 1_000_000 }],
      }),
      200,
    );
    // each match, ignore and unmatch is in the audit log, by whom, with the line's status before and after
    type Entry = {
      action: string;
      user_email: string;
      record_id: number;
      summary: string;
      changes: unknown[];
    };
    const log = expectStatus(await client.get('/audit-log?entity=statement_lines&sort=at'), 200).json<
      Entry[]
    >();
    expect(log.map((e) => [e.action, e.record_id, e.user_email])).toEqual([
      ['match', unknown.id, editor.user.email],
      ['match', sarah.id, editor.user.email],
      ['ignore', byTx(lines, '10002').id, editor.user.email],
      ['unmatch', sarah.id, client.user.email],
      ['match', sarah.id, editor.user.email],
    ]);
    expect(log[2]?.summary).toContain('mtn_momo 10002');
    expect(log[2]?.changes).toContainEqual({ field: 'status', before: 'suggested', after: 'ignored' });
  });

  it('keeps each route to its company and roles', async () => {
    const a = await companyWith(t);
    await fixture(a.client);
    expectStatus(await upload(a.client, 'mtn_momo', 'momo.csv', sample('mtn_momo.csv')), 201);
    const [line] = await linesOf(a.client);
    const b = await companyWith(t);
    const fb = await fixture(b.client);
    // another company sees none of it, and its ids are 404
    expect(await linesOf(b.client)).toEqual([]);
    expect(expectStatus(await b.client.get('/statements'), 200).json()).toEqual([]);
    expectStatus(await b.client.get(`/statement-lines/${line?.id}`), 404);
    expectStatus(
      await b.client.post(`/statement-lines/${line?.id}/match`, {
        allocations: [{ occupancy_id: fb.grace.id, amount: line?.amount }],
      }),
      404,
    );
    expectStatus(await b.client.post(`/statement-lines/${line?.id}/ignore`, { reason: 'x' }), 404);
    expectStatus(await b.client.post(`/statement-lines/${line?.id}/unmatch`), 404);
    // another company's lease cannot take the money
    const suggested = byTx(await linesOf(a.client), '10004');
    expectStatus(
      await a.client.post(`/statement-lines/${suggested.id}/match`, {
        allocations: [{ occupancy_id: fb.peter.id, amount: 500_000 }],
      }),
      400,
    );
    // a viewer: 403 everywhere; signed out: 401
    const viewer = await a.signIn(['viewer']);
    expectStatus(await viewer.get('/statement-lines'), 403);
    expectStatus(await viewer.get('/statements'), 403);
    expectStatus(await upload(viewer, 'mtn_momo', 'momo.csv', sample('mtn_momo.csv')), 403);
    expectStatus(await viewer.post(`/statement-lines/${line?.id}/ignore`, { reason: 'x' }), 403);
    expectStatus(await viewer.post('/company-settings/webhook-secret'), 403);
    const companyAdmin = await a.signIn(['company_admin']);
    expectStatus(await companyAdmin.post(`/statement-lines/${line?.id}/unmatch`), 403);
    const anon = new TestClient(t.app);
    await anon.get('/auth/status');
    expectStatus(await anon.get('/statement-lines'), 401);
    expectStatus(await anon.post('/statements', {}), 401);
  });

  describe('the payment webhook', () => {
    const call = (
      t: TestContext,
      key: string,
      body: Record<string, unknown>,
      secret: string,
      at = Math.floor(Date.now() / 1000),
    ): Promise<LightMyRequestResponse> => {
      const text = JSON.stringify(body);
      return t.app.inject({
        method: 'POST',
        url: `/rentapi/api/webhooks/payments/${key}`,
        headers: { 'content-type': 'application/json', 'x-kodi-signature': signWebhook(secret, text, at) },
        payload: text,
      });
    };
    const payment = (over: Record<string, unknown> = {}) => ({
      transaction_id: 'WH-1',
      amount: 500_000,
      currency: 'UGX',
      payer_phone: '0772100001',
      payer_name: 'GRACE NAMULI',
      reference: 'A1',
      paid_at: '2026-02-10T08:30:00Z',
      ...over,
    });

    it('refuses impossible values: dates out of 2000 to tomorrow, amounts that are not numbers, a currency not written exactly', async () => {
      const { client } = await companyWith(t);
      const f = await fixture(client);
      const made = expectStatus(await client.post('/company-settings/webhook-secret'), 200).json<{
        url: string;
        secret: string;
      }>();
      const key = made.url.split('/').pop() ?? '';
      let n = 0;
      const send = (over: Record<string, unknown>) =>
        call(t, key, payment({ transaction_id: `IMP-${++n}`, ...over }), made.secret);
      const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
      const refused: [string, unknown][] = [
        // stored before, after which GET /statement-lines answered 500 on every page
        ['paid_at', '+275760-09-13'],
        ['paid_at', '-271821-04-20'],
        ['paid_at', '+275760-09-13T00:00:00Z'],
        ['paid_at', '1'],
        ['paid_at', 'Feb 10 2026'],
        ['paid_at', '2026-02-30'],
        ['paid_at', '2026-02-10 08:30:00'],
        ['paid_at', '1999-12-31T23:59:59Z'],
        ['paid_at', '1970-01-01'],
        ['paid_at', '9999-12-31'],
        ['paid_at', inHours(25)],
        ['paid_at', 1_770_000_000],
        ['paid_at', null],
        // taken as 1, 1 and 1000 before
        ['amount', true],
        ['amount', [1]],
        ['amount', '1e3'],
        ['amount', '1,000'],
        ['amount', ' 1000'],
        ['amount', '-5'],
        ['amount', 0],
        ['amount', '0.00'],
        ['amount', 0.001],
        ['amount', 0.1 + 0.2],
        ['amount', '1000.505'],
        ['amount', 1e13],
        ['amount', '1000000000000'],
        ['amount', { value: 1 }],
        ['currency', 'ugx'],
        ['currency', ' UGX'],
        ['currency', 'UGXX'],
      ];
      for (const [field, value] of refused) {
        const res = await send({ [field]: value });
        expect(res.statusCode, `${field} ${JSON.stringify(value)}: ${res.body}`).toBe(400);
        expect(
          res.json<{ code: string; fields: Record<string, string> }>(),
          JSON.stringify(value),
        ).toMatchObject({
          code: 'validation_failed',
          fields: { [field]: expect.any(String) },
        });
      }
      expect(await linesOf(client)).toHaveLength(0);
      // another company's currency, written right: 422 as before
      expectStatus(await send({ currency: 'USD' }), 422);

      // taken: decimal texts, the largest amount NUMERIC(14,2) holds, a date, a time without an offset
      // (the company's own day), a time with one (read in the company's zone, Africa/Kampala, UTC+3)
      const taken: [Record<string, unknown>, { date: string; amount: number }][] = [
        [{ amount: '1500.50' }, { date: '2026-02-10', amount: 1500.5 }],
        [{ amount: '999999999999.99' }, { date: '2026-02-10', amount: 999_999_999_999.99 }],
        [{ amount: 0.07 }, { date: '2026-02-10', amount: 0.07 }],
        [{ paid_at: '2000-01-01' }, { date: '2000-01-01', amount: 500_000 }],
        [{ paid_at: '2026-02-10T23:30:00' }, { date: '2026-02-10', amount: 500_000 }],
        [{ paid_at: '2026-02-10T23:30:00Z' }, { date: '2026-02-11', amount: 500_000 }],
        [{ paid_at: '2026-02-10T23:30:00.123-05:00' }, { date: '2026-02-11', amount: 500_000 }],
      ];
      for (const [over, expected] of taken) {
        const res = expectStatus(await send(over), 200);
        const line = expectStatus(await client.get(`/statement-lines/${res.json<{ id: number }>().id}`), 200);
        expect(line.json(), JSON.stringify(over)).toMatchObject(expected);
      }
      // up to a day ahead of the server's clock (clocks a little apart, zones ahead of UTC)
      expectStatus(await send({ paid_at: inHours(23) }), 200);
      expect(f.grace.id).toBeGreaterThan(0);
      expectStatus(await client.get('/statement-lines?page_size=100'), 200);
    });

    it('takes signed payments once, refuses bad signatures, old times and other currencies', async () => {
      const { client, signIn } = await companyWith(t);
      const f = await fixture(client);
      await setSettings(client, { auto_post_matches: true });
      const companyAdmin = await signIn(['company_admin']);
      const made = expectStatus(await companyAdmin.post('/company-settings/webhook-secret'), 200).json<{
        url: string;
        secret: string;
      }>();
      expect(made.url).toMatch(/\/rentapi\/api\/webhooks\/payments\/[0-9a-f]{32}$/);
      expect(made.secret.length).toBeGreaterThanOrEqual(32);
      const settings = expectStatus(await client.get('/company-settings'), 200);
      expect(settings.json()).toMatchObject({ webhook_url: made.url });
      expect(settings.body).not.toContain(made.secret);
      const key = made.url.split('/').pop() ?? '';
      // stored sealed under the server's key (lib/secrets.ts), never in clear
      const storedSecret = async () =>
        (
          await t.database.query<{ secret: string }>(
            'SELECT secret FROM payment_webhooks WHERE company_key = $1',
            [key],
          )
        )[0]?.secret ?? '';
      const sealed = await storedSecret();
      expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
      expect(sealed).not.toContain(made.secret.slice('whsec_'.length));

      const ok = expectStatus(await call(t, key, payment(), made.secret), 200);
      expect(ok.json()).toMatchObject({ status: 'matched', duplicate: false });
      const line = byTx(await linesOf(client), 'WH-1');
      expect(line).toMatchObject({ status: 'matched', occupancy_id: f.grace.id, date: '2026-02-10' });
      const [paid] = await paymentsOf(client);
      expect(paid).toMatchObject({
        payment_method: 'mobilemoney',
        reference_number: 'WH-1',
        status: 'completed',
      });

      // a replay answers 200 and changes nothing
      const replay = expectStatus(await call(t, key, payment(), made.secret), 200);
      expect(replay.json()).toMatchObject({ id: line.id, duplicate: true });
      // the delivery is in the audit log, once, by nobody
      const deliveries = expectStatus(await client.get('/audit-log?action=webhook'), 200).json<
        { user_id: number | null; record_id: number; summary: string }[]
      >();
      expect(deliveries).toEqual([
        expect.objectContaining({
          user_id: null,
          record_id: line.id,
          summary: expect.stringContaining('WH-1'),
        }),
      ]);
      expect(await paymentsOf(client)).toHaveLength(1);
      expect(await linesOf(client)).toHaveLength(1);

      // wrong secret, no signature, a time more than 5 minutes away, an unknown key: 401
      expectStatus(await call(t, key, payment({ transaction_id: 'WH-2' }), 'whsec_wrong'), 401);
      const unsigned = await t.app.inject({
        method: 'POST',
        url: `/rentapi/api/webhooks/payments/${key}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(payment({ transaction_id: 'WH-2' })),
      });
      expect(unsigned.statusCode).toBe(401);
      const old = Math.floor(Date.now() / 1000) - 301;
      expectStatus(await call(t, key, payment({ transaction_id: 'WH-2' }), made.secret, old), 401);
      expectStatus(await call(t, key, payment({ transaction_id: 'WH-2' }), made.secret, old + 602), 401);
      expectStatus(await call(t, 'f'.repeat(32), payment({ transaction_id: 'WH-2' }), made.secret), 401);
      // the body signed is the body sent
      const tampered = await t.app.inject({
        method: 'POST',
        url: `/rentapi/api/webhooks/payments/${key}`,
        headers: {
          'content-type': 'application/json',
          'x-kodi-signature': signWebhook(
            made.secret,
            JSON.stringify(payment({ transaction_id: 'WH-2' })),
            Math.floor(Date.now() / 1000),
          ),
        },
        payload: JSON.stringify(payment({ transaction_id: 'WH-2', amount: 5 })),
      });
      expect(tampered.statusCode).toBe(401);

      // a body the rules refuse, signed: 400
      expectStatus(await call(t, key, payment({ transaction_id: 'WH-6', amount: 1.005 }), made.secret), 400);
      // another currency: 422
      const usd = expectStatus(
        await call(t, key, payment({ transaction_id: 'WH-3', currency: 'USD' }), made.secret),
        422,
      );
      expect(usd.json<{ code: string }>().code).toBe('wrong_currency');

      // an unknown payer: kept unmatched
      const unknown = expectStatus(
        await call(
          t,
          key,
          payment({ transaction_id: 'WH-4', payer_phone: '+256709999999', reference: 'x' }),
          made.secret,
        ),
        200,
      );
      expect(unknown.json()).toMatchObject({ status: 'unmatched', duplicate: false });
      expect(await linesOf(client)).toHaveLength(2);

      // a new secret: the old one stops working, the URL stays
      const rotated = expectStatus(await client.post('/company-settings/webhook-secret'), 200).json<{
        url: string;
        secret: string;
      }>();
      expect(rotated.url).toBe(made.url);
      expect(rotated.secret).not.toBe(made.secret);
      expectStatus(await call(t, key, payment({ transaction_id: 'WH-5' }), made.secret), 401);
      expectStatus(await call(t, key, payment({ transaction_id: 'WH-5' }), rotated.secret), 200);
      expect(await storedSecret()).not.toBe(sealed);

      // a secret stored in clear before sealing began still verifies
      await t.database.query('UPDATE payment_webhooks SET secret = $2 WHERE company_key = $1', [
        key,
        made.secret,
      ]);
      expectStatus(await call(t, key, payment({ transaction_id: 'WH-7' }), made.secret), 200);
      expectStatus(await call(t, key, payment({ transaction_id: 'WH-8' }), rotated.secret), 401);
    });

    it('matches the payer by any spelling of its phone', async () => {
      const { client } = await companyWith(t);
      const f = await fixture(client);
      // John's phone as typed before phones were saved in E.164
      await t.database.query(`UPDATE tenants SET phone = '0772 100 002', country_code = NULL WHERE id = $1`, [
        f.john.tenant_id,
      ]);
      const { url, secret } = expectStatus(await client.post('/company-settings/webhook-secret'), 200).json<{
        url: string;
        secret: string;
      }>();
      const key = url.split('/').pop() ?? '';
      const payers: [phone: string, lease: number][] = [
        ['0772 100 001', f.grace.id],
        ['256772100001', f.grace.id],
        ['+256 772 100 001', f.grace.id],
        ['772100001', f.grace.id],
        ['+256 772 100 002', f.john.id],
        ['0772100002', f.john.id],
      ];
      for (const [i, [payer_phone]] of payers.entries()) {
        const body = payment({
          transaction_id: `WH-P${i}`,
          payer_phone,
          payer_name: 'X',
          reference: 'thanks',
        });
        expectStatus(await call(t, key, body, secret), 200);
      }
      const lines = await linesOf(client);
      for (const [i, [phone, lease]] of payers.entries())
        expect(byTx(lines, `WH-P${i}`).occupancy_id, phone).toBe(lease);
    });
  });
});
