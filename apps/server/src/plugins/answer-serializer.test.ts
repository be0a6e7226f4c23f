import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerSerializerCompiler, type AnswerMismatch } from './answer-serializer.ts';
import { registerErrorHandling } from './errors.ts';

const line = z.strictObject({ id: z.int(), date: z.iso.date(), amount: z.number() });
const answer = z.object({
  lines: z.array(line),
  total: z.number(),
  kind: z.union([z.strictObject({ a: z.string() }), z.strictObject({ b: z.int() })]),
  note: z.string().nullable().optional(),
});

/** What a handler might give: a row of the year 275760, a column nobody declared, a secret. */
const odd = {
  lines: [
    { id: 1, date: '2026-02-10', amount: 5 },
    { id: 2, date: '275760-09-13', amount: 7, password_hash: 'argon2id$…' },
  ],
  total: 12,
  kind: { a: 'x', secret: 's' },
  note: null,
  extra: 'not declared',
};

const appWith = async (strict: boolean) => {
  const mismatches: AnswerMismatch[] = [];
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler({ strict, onMismatch: (m) => mismatches.push(m) }));
  registerErrorHandling(app, {});
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/odd', { schema: { response: { 200: answer } } }, () => odd as unknown as z.infer<typeof answer>);
  r.get('/fine', { schema: { response: { 200: answer } } }, () => ({
    lines: [{ id: 1, date: '2026-02-10', amount: 5 }],
    total: 5,
    kind: { b: 2 },
    extra: 'stripped by the object',
  }));
  await app.ready();
  return { app, mismatches };
};

describe('answers checked against their schemas on the way out', () => {
  it('outside production, an answer that does not match is a 500 the tests see', async () => {
    const { app, mismatches } = await appWith(true);
    const res = await app.inject({ method: 'GET', url: '/odd' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      error: 'Something went wrong on our side. Please try again.',
      code: 'internal_error',
    });
    expect(mismatches).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/fine' })).json()).toEqual({
      lines: [{ id: 1, date: '2026-02-10', amount: 5 }],
      total: 5,
      kind: { b: 2 },
    });
    await app.close();
  });

  it('in production, it is logged and sent with only what the schema declares, its odd values as they are', async () => {
    const { app, mismatches } = await appWith(false);
    const res = await app.inject({ method: 'GET', url: '/odd' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      lines: [
        { id: 1, date: '2026-02-10', amount: 5 },
        { id: 2, date: '275760-09-13', amount: 7 },
      ],
      total: 12,
      kind: { a: 'x' },
      note: null,
    });
    expect(res.body).not.toContain('argon2id');
    expect(res.body).not.toContain('secret');
    expect(mismatches).toHaveLength(1);
    expect(mismatches[0]).toMatchObject({ method: 'GET', url: '/odd' });
    expect(mismatches[0]?.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['lines.1.date', 'lines.1', 'kind']),
    );
    // a matching answer is untouched and logs nothing
    expectFine(await app.inject({ method: 'GET', url: '/fine' }));
    expect(mismatches).toHaveLength(1);
    await app.close();
  });
});

const expectFine = (res: { statusCode: number; json: () => unknown }) => {
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ lines: [{ id: 1, date: '2026-02-10', amount: 5 }], total: 5, kind: { b: 2 } });
};
