import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { entityList } from '@kodi/domain';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { serverRoot } from '../db/client.ts';
import { testConfig, testDatabase } from '../test/harness.ts';
import { documentRoutes, json } from './openapi.ts';
import { SESSION_COOKIE } from './session.ts';

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
type Document = {
  tags: { name: string; description: string }[];
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
  paths: Record<string, Record<string, Operation>>;
};

const repoRoot = path.resolve(serverRoot, '..', '..');
const spectralBin = () => {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@stoplight/spectral-cli/package.json');
  return path.join(path.dirname(pkg), 'dist', 'index.js');
};

/** Spectral's results for the document (its JSON format), whatever its exit code. */
const spectral = (file: string) =>
  new Promise<{ code: string; message: string; path: string[]; severity: number }[]>((resolve, reject) => {
    execFile(
      process.execPath,
      [
        spectralBin(),
        'lint',
        file,
        '--ruleset',
        path.join(repoRoot, '.spectral.yaml'),
        '--format',
        'json',
        '--fail-severity',
        'hint',
        '--quiet',
      ],
      { cwd: repoRoot, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout || '[]'));
        } catch {
          reject(new Error(`spectral failed: ${err?.message ?? ''}\n${stderr}`));
        }
      },
    );
  });

describe('the OpenAPI document', () => {
  let app: FastifyInstance;
  let doc: Document;
  let text: string;
  const operations = () =>
    Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ where: `${method.toUpperCase()} ${p}`, method, op })),
    );

  beforeAll(async () => {
    app = await buildApp(testConfig(), await testDatabase());
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/rentapi/docs/json' });
    expect(res.statusCode).toBe(200);
    text = res.body;
    doc = res.json<Document>();
  });
  afterAll(async () => {
    await app.close();
  });

  it("passes Spectral's recommended OpenAPI rules with no result of any severity", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kodi-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await writeFile(file, text);
      const results = await spectral(file);
      expect(results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('names, describes and tags every operation, and declares what it answers', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(100);
    const tagNames = doc.tags.map((t) => t.name);
    for (const { where, op } of ops) {
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.summary, where).toBeTruthy();
      expect(
        op.tags?.every((t) => tagNames.includes(t)),
        where,
      ).toBe(true);
      const success = Object.keys(op.responses).filter((s) => /^[23]/.test(s));
      expect(success, where).not.toEqual([]);
      for (const [status, response] of Object.entries(op.responses)) {
        if (status.startsWith('4')) {
          expect(response.content?.['application/json']?.schema, `${where} ${status}`).toEqual({
            $ref: '#/components/schemas/Error',
          });
        }
      }
    }
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
    expect(ops.map((o) => o.op.operationId)).toEqual(
      expect.arrayContaining([
        'listUnits',
        'getUnit',
        'createUnit',
        'updateUnit',
        'deleteUnit',
        'exportUnits',
      ]),
    );
  });

  it('requires the session cookie where the API does, and the CSRF header on every change', () => {
    expect(doc.components.securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
    });
    const byId = new Map(operations().map((o) => [o.op.operationId, o]));
    expect(byId.get('listUnits')?.op.security).toEqual([{ session: [] }]);
    expect(byId.get('updateUnit')?.op.security).toEqual([{ session: [], csrf: [] }]);
    expect(byId.get('getHealth')?.op.security).toEqual([]);
    expect(byId.get('getAuthStatus')?.op.security).toEqual([]);
    // signing in needs the anonymous session's cookie and CSRF token
    expect(byId.get('signIn')?.op.security).toEqual([{ session: [], csrf: [] }]);
    // the payment webhook is a signed machine call: no session, no CSRF (its own signature)
    expect(byId.get('receivePaymentWebhook')?.op.security).toEqual([]);
    expect(Object.keys(byId.get('receivePaymentWebhook')?.op.responses ?? {})).toContain('401');
    // the mobile-money providers' callbacks (issue 29): no session, no CSRF (a secret path, then a status query)
    const callbacks = new Set([
      'darajaValidation',
      'darajaConfirmation',
      'darajaStkCallback',
      'momoCallback',
      'momoCallbackPut',
      'airtelCallback',
    ]);
    expect(byId.get('darajaConfirmation')?.op.security).toEqual([]);
    // WhatsApp's webhook (issue 29): a signed machine call, no session, no CSRF (X-Hub-Signature-256)
    expect(byId.get('receiveWhatsappWebhook')?.op.security).toEqual([]);
    expect(Object.keys(byId.get('receiveWhatsappWebhook')?.op.responses ?? {})).toContain('401');
    callbacks.add('receiveWhatsappWebhook');
    for (const { where, method, op } of operations()) {
      if (op.operationId === 'receivePaymentWebhook' || callbacks.has(op.operationId ?? '')) continue;
      if (method !== 'get') expect(op.security, where).toEqual([{ session: [], csrf: [] }]);
      if (op.security?.length) expect(Object.keys(op.responses), where).toContain('403');
    }
  });

  it('answers records in the shape derived from their definitions', () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, unknown> } }).components
      .schemas;
    expect(schemas.UnitListRow).toMatchObject({
      properties: { has_image_1: { type: 'boolean' }, monthly_rate: { type: 'number' } },
    });
    expect(Object.keys((schemas.UnitListRow as { properties: object }).properties)).not.toContain(
      'image_1_base64',
    );
    expect(Object.keys((schemas.Unit as { properties: object }).properties)).toContain('image_1_base64');
    expect(Object.keys((schemas.Occupancy as { properties: object }).properties)).not.toContain('lease_doc');
    const get = doc.paths['/rentapi/api/units/{id}']?.get;
    expect(get?.responses['200']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Unit',
    });
    const receipt = doc.paths['/rentapi/api/payments/{id}/receipt.pdf']?.get;
    expect(receipt?.responses['200']?.content?.['application/pdf']?.schema).toEqual({
      type: 'string',
      format: 'binary',
    });
  });
});

describe('documentRoutes', () => {
  it('refuses, at start-up, an API route that does not say what it answers', async () => {
    const app = Fastify();
    documentRoutes(app, entityList);
    expect(() =>
      app.get('/x', { schema: { operationId: 'getX', tags: ['health'], summary: 'X' } }, () => 'x'),
    ).toThrow(/success response/);
    expect(() =>
      app.get(
        '/y',
        {
          schema: {
            operationId: 'getY',
            tags: ['nowhere'],
            summary: 'Y',
            response: { 200: json(z.string(), 'Y') },
          },
        },
        () => 'y',
      ),
    ).toThrow(/unknown tag/);
    app.get(
      '/z',
      {
        schema: {
          operationId: 'getZ',
          tags: ['health'],
          summary: 'Z',
          response: { 200: json(z.string(), 'Z') },
        },
      },
      () => 'z',
    );
    expect(() =>
      app.get(
        '/z2',
        {
          schema: {
            operationId: 'getZ',
            tags: ['health'],
            summary: 'Z',
            response: { 200: json(z.string(), 'Z') },
          },
        },
        () => 'z',
      ),
    ).toThrow(/used twice/);
    await app.close();
  });
});

describe('response schemas on the way out', () => {
  it('check and serialise an object answer, and send JSON text (a kept list page) as it is', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const rows = z.array(z.strictObject({ id: z.number() }));
    app.get('/object', { schema: { response: { 200: rows } } }, () => [{ id: 1, secret: 'x' }]);
    // the list routes' page is JSON text made by the SQL: the schema documents it, costing nothing
    app.get('/text', { schema: { response: { 200: rows } } }, (_request, reply) =>
      reply.type('application/json; charset=utf-8').send('[{"id":1,"unchecked":true}]'),
    );
    const checked = await app.inject({ method: 'GET', url: '/object' });
    expect(checked.statusCode).toBe(500);
    const sent = await app.inject({ method: 'GET', url: '/text' });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toBe('[{"id":1,"unchecked":true}]');
    await app.close();
  });
});
