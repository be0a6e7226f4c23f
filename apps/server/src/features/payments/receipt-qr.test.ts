import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import QRCode from 'qrcode';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { greyToRgba, pdfPageGrey } from '../../test/pdf-raster.ts';

const PUBLIC_URL = 'https://rent.kodi.example';

/** The dark modules an SVG path of `M{x} {y}h{w}v1h-{w}z` runs says, as rows of 0 and 1. */
const modulesOfPath = (path: string, size: number): number[][] => {
  const grid = Array.from({ length: size }, () => Array.from({ length: size }, () => 0));
  for (const [, x, y, w] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let i = 0; i < Number(w); i++) grid[Number(y)]![Number(x) + i] = 1;
  }
  return grid;
};

describe(`the receipt's QR code (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let paymentId: number;

  beforeEach(async () => {
    t = await setupApp({ publicUrl: PUBLIC_URL, publicUrlSet: true });
    const company = await buildCompany(t.database, { name: 'Kampala Homes' });
    const u = await buildUser(t.database, { company_id: company.id, roles: ['editor'] });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);
    const unit = (await admin.post('/units', validUnit())).json();
    const tenant = (await admin.post('/tenants', validTenant())).json();
    await admin.post('/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: '2026-01-01',
      rate: 900,
    });
    const res = await admin.post('/payments', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      payment_date: '2026-11-05',
      amount_paid: 900,
      status: 'completed',
      effective_start_date: '2026-11-01',
      effective_end_date: '2026-11-30',
    });
    expect(res.statusCode).toBe(201);
    paymentId = res.json().id;
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('draws, as vectors, a QR code that reads {PUBLIC_URL}/r/{code}', async () => {
    const link = (await admin.get(`/payments/${paymentId}/receipt-link`)).json();
    const url = `${PUBLIC_URL}/r/${link.receipt_code}`;
    expect(link.receipt_url).toBe(url);

    const pdf = await admin.get(`/payments/${paymentId}/receipt.pdf`);
    expect(pdf.statusCode).toBe(200);
    // no picture in the file (the company has no logo): the code is drawn, not pasted in
    expect(pdf.rawPayload.toString('latin1')).not.toContain('/Subtype /Image');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Verify this receipt');
    expect(text.replace(/\s+/g, '')).toContain(url);

    // rasterised by poppler, the page holds a QR code that a decoder reads as the URL
    const page = pdfPageGrey(pdf.rawPayload, 150);
    const found = jsQR(greyToRgba(page), page.width, page.height);
    expect(found?.data).toBe(url);
  });

  it("answers the QR code's modules as an SVG path, the library's matrix for the URL", async () => {
    const link = (await admin.get(`/payments/${paymentId}/receipt-link`)).json();
    const { modules } = QRCode.create(link.receipt_url, { errorCorrectionLevel: 'M' });
    expect(link.qr.size).toBe(modules.size);
    const expected = Array.from({ length: modules.size }, (_, r) =>
      Array.from({ length: modules.size }, (_, c) => modules.get(r, c)),
    );
    expect(modulesOfPath(link.qr.path, link.qr.size)).toEqual(expected);
  });
});
