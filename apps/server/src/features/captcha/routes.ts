import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import svgCaptcha from 'svg-captcha';
import { z } from 'zod';
import { captchaValidateBody } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { hitRateLimit } from '../../plugins/rate-limit.ts';
import { captchaMatches } from '../../platform/captcha.ts';
import { errors, file, json } from '../../plugins/openapi.ts';

/** svg-captcha's main export draws a given text; its typings only declare `create`. */
const drawText = svgCaptcha as unknown as (text: string, options: object) => string;

export const captchaRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limit = async (ip: string) => {
    if (ctx.config.rateLimits) await hitRateLimit(ctx.database, `captcha:${ip}`, 120);
  };

  r.get(
    '/captcha',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getCaptcha',
        tags: ['auth'],
        summary: 'A new CAPTCHA image (SVG); its answer is kept with the session',
        querystring: z.object({ t: z.string().max(50).optional() }).passthrough(),
        response: {
          200: file('The image (5 characters, valid 10 minutes)', 'image/svg+xml'),
          ...errors(429),
        },
      },
    },
    async (request, reply) => {
      await limit(request.ip);
      const session = await ctx.sessions.ensure(request, reply);
      const opts = {
        size: 5,
        noise: 2,
        color: false,
        background: '#f4f6fb',
        width: 200,
        height: 64,
        fontSize: 56,
      };
      const captcha = ctx.config.captchaTestAnswer
        ? { text: ctx.config.captchaTestAnswer, data: drawText(ctx.config.captchaTestAnswer, opts) }
        : svgCaptcha.create({ ...opts, ignoreChars: '0oO1lIi' });
      await ctx.sessions.setCaptcha(session, captcha.text);
      return reply.header('Cache-Control', 'no-store').type('image/svg+xml').send(captcha.data);
    },
  );

  r.post(
    '/captcha/validate',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'validateCaptcha',
        tags: ['auth'],
        summary: 'Checks a CAPTCHA answer without using it up',
        body: captchaValidateBody,
        response: {
          200: json(z.object({ valid: z.boolean() }), 'Whether the answer matches'),
          ...errors(429),
        },
      },
    },
    async (request) => {
      await limit(request.ip);
      return { valid: captchaMatches(request.session, request.body.answer) };
    },
  );
};
