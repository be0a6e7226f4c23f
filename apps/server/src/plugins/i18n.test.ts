import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  errorCodes,
  formatDate,
  publicReceiptMessages,
  publicReceiptStatus,
  publicReceiptTitles,
  receiptVoidedMessage,
} from '@kodi/domain';
import { catalogues } from '@kodi/domain/i18n';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { expectStatus } from '../test/rent-cycle.ts';
import { validUnit } from '../test/entities.ts';
import { portalCompany, portalTenant, tenantWithLease } from '../test/portal.ts';
import { translate, translateErrorBody } from './i18n.ts';

describe('the glossary (docs/glossary.md)', () => {
  it('is what the catalogues say, word for word, in every language', () => {
    const rows = readFileSync(new URL('../../../../docs/glossary.md', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => /^\| [a-zA-Z]+ +\|/.test(line) && !line.startsWith('| Key'))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.map((row) => `glossary.${row[1]}`).sort()).toEqual(
      Object.keys(catalogues.en)
        .filter((k) => k.startsWith('glossary.'))
        .sort(),
    );
    for (const [, key, ...words] of rows) {
      LANGUAGES.forEach((language, i) => expect(catalogues[language][`glossary.${key}`]).toBe(words[i]));
    }
  });
});

describe('translating (issue 30)', () => {
  it('formats ICU plurals and selects per language, falling back to English for a missing key', () => {
    expect(translate('fr', 'portal.leases', { count: 1 })).toBe('1 bail');
    expect(translate('fr', 'portal.leases', { count: 3 })).toBe('3 baux');
    expect(translate('sw', 'portal.leases', { count: 3 })).toBe('mikataba 3');
    expect(translate('sw', 'portal.cycle', { cycle: 'weekly' })).toBe('kwa wiki');
    expect(translate('en', 'portal.leases', { count: 1 })).toBe('1 lease');
    expect(translate('sw', 'no.such.key')).toBe('no.such.key');
  });

  it('keeps the public receipt page’s English: its titles and messages are the spec’s', () => {
    for (const status of publicReceiptStatus) {
      expect(translate('en', 'receipt.statusTitle', { status })).toBe(publicReceiptTitles[status]);
      expect(translate('en', 'receipt.statusMessage', { status })).toBe(publicReceiptMessages[status]);
    }
    expect(translate('en', 'receipt.voidedOn', { date: formatDate('2026-11-22') })).toBe(
      receiptVoidedMessage('2026-11-22'),
    );
  });

  it('translates an error by its code only when its message is the code’s own', () => {
    expect(translateErrorBody({ error: 'Not found.', code: 'not_found' }, 'fr').error).toBe('Introuvable.');
    const own = {
      error: 'This record is still used by payments. Remove those first.',
      code: 'in_use' as const,
    };
    expect(translateErrorBody(own, 'sw')).toEqual(own);
    expect(translateErrorBody({ error: 'Not found.', code: 'not_found' }, 'en').error).toBe('Not found.');
  });
});

describe(`errors and validation messages in the user's language (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('answers before sign-in in the browser’s language (Accept-Language), else English', async () => {
    const expected = {
      en: ['CAPTCHA failed', 'This field is required.'],
      sw: ['CAPTCHA haikufaulu', 'Sehemu hii inahitajika.'],
      fr: ['Échec du CAPTCHA', 'Ce champ est obligatoire.'],
    } as const;
    for (const [header, language] of [
      ['fr-CD,fr;q=0.9', 'fr'],
      ['sw-KE', 'sw'],
      ['de-DE', 'en'],
      ['', 'en'],
    ] as const) {
      const c = new TestClient(t.app);
      await c.get('/auth/csrf-token');
      const headers: Record<string, string> = header ? { 'accept-language': header } : {};
      const wrong = await c.post(
        '/auth/login',
        { email: 'nobody@example.com', password: 'whatever1', captcha_answer: 'wrong' },
        headers,
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ code: 'captcha_failed', error: expected[language][0] });
      const invalid = await c.post('/auth/login', { email: '', password: '', captcha_answer: '' }, headers);
      expect(invalid.statusCode).toBe(400);
      const body = invalid.json<{ code: string; error: string; fields: Record<string, string> }>();
      expect(body.code).toBe('validation_failed');
      expect(body.fields.password).toBe(expected[language][1]);
    }
  });

  it("answers a staff user in its own language once it set one, whatever the browser's", async () => {
    const { staff } = await portalCompany(t);
    const unit = expectStatus(await staff.post('/units', validUnit({ name: 'A1' })), 201).json<
      Record<string, unknown> & { id: number }
    >();
    // a stale version: the conflict's own message
    const stale = () =>
      staff.put(`/units/${unit.id}`, { ...unit, version: 999 }, { 'accept-language': 'fr' });
    expect((await stale()).json()).toMatchObject({ code: 'conflict', error: errorCodes.conflict.message });

    const set = expectStatus(await staff.put('/auth/language', { language: 'sw' }), 200);
    expect(set.json()).toMatchObject({ language: 'sw' });
    expect((await staff.get('/auth/status')).json()).toMatchObject({ user: { language: 'sw' } });
    const conflict = await stale();
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({
      error: 'Rekodi hii imebadilishwa na mtu mwingine. Pakia upya ili kuona toleo la karibuni.',
      code: 'conflict',
    });
    const invalid = await staff.post('/tenants', {});
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      error: 'Tafadhali sahihisha makosa ya fomu.',
      fields: { first_name: 'Sehemu hii inahitajika.' },
    });

    expectStatus(await staff.put('/auth/language', { language: 'fr' }), 200);
    expect((await stale()).json()).toMatchObject({
      error:
        'Cet enregistrement a été modifié par quelqu’un d’autre. Rechargez pour voir la dernière version.',
    });
    expect((await staff.post('/tenants', {})).json()).toMatchObject({
      error: 'Veuillez corriger les erreurs du formulaire.',
      fields: { first_name: 'Ce champ est obligatoire.' },
    });

    expectStatus(await staff.put('/auth/language', { language: null }), 200);
    expect((await stale()).json()).toMatchObject({ error: errorCodes.conflict.message });
    expect((await staff.put('/auth/language', { language: 'de' })).statusCode).toBe(400);
  });

  it("answers a tenant in its tenant record's language, else its company's default, else English", async () => {
    const { staff, company } = await portalCompany(t);
    const tl = await tenantWithLease(staff);
    const tenant = await portalTenant(t, staff, tl.tenantId);
    // a staff page: not the tenant's (the code's own message)
    const foreign = async () => (await tenant.get('/units')).json<{ error: string }>();

    expect((await tenant.get('/auth/status')).json()).toMatchObject({ user: { language: 'en' } });
    expect(await foreign()).toMatchObject({ error: 'You are not allowed to do this.' });

    await t.database.query('UPDATE companies SET default_language = $2 WHERE id = $1', [company.id, 'sw']);
    expect((await tenant.get('/auth/status')).json()).toMatchObject({ user: { language: 'sw' } });
    expect(await foreign()).toMatchObject({ error: 'Huruhusiwi kufanya hivi.' });

    const current = expectStatus(await staff.get(`/tenants/${tl.tenantId}`), 200).json<{ version: number }>();
    expectStatus(
      await staff.put(`/tenants/${tl.tenantId}`, { ...current, language: 'fr', version: current.version }),
      200,
    );
    expect((await tenant.get('/auth/status')).json()).toMatchObject({ user: { language: 'fr' } });
    expect(await foreign()).toMatchObject({ error: 'Vous n’êtes pas autorisé à faire ceci.' });
    // a tenant's language is set on its record: the portal account cannot set a staff language
    expect((await tenant.put('/auth/language', { language: 'sw' })).statusCode).toBe(403);
  });
});
