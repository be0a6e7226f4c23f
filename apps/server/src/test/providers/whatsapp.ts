import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, randomBytes } from 'node:crypto';

/**
 * A local WhatsApp Business Cloud API, from Meta's documentation, for the tests:
 * - `POST /{version}/{phone-number-id}/messages` (`Authorization: Bearer <token>`), body
 *   `{ messaging_product: 'whatsapp', to, type: 'template', template: { name, language: { code },
 *   components: [{ type: 'body', parameters: [{ type: 'text', text }] }] } }` →
 *   `{ messaging_product, contacts: [{ input, wa_id }], messages: [{ id: 'wamid.…' }] }`;
 * - its errors as Meta answers them: `{ error: { message, type, code, error_data: { messaging_product,
 *   details }, fbtrace_id } }` (401 code 190 a bad token; 400 code 132001 a template that does not
 *   exist, 100 a bad parameter; a scripted answer for the others);
 * - the webhook's calls as Meta makes them (`statusCall`): `entry[].changes[].value.statuses[]` with
 *   `id`, `status`, `timestamp`, `recipient_id` and `errors[]`, signed with `X-Hub-Signature-256:
 *   sha256=<HMAC-SHA256 of the raw body with the app secret>`.
 */
export type WhatsappAccount = {
  phoneNumberId: string;
  token: string;
  appSecret: string;
  /** the templates approved, by name, with their languages and how many body variables */
  templates: Record<string, { languages: string[]; variables: number }>;
};

export type SentTemplate = {
  id: string;
  to: string;
  name: string;
  language: string;
  parameters: string[];
  version: string;
};

const readBody = (req: http.IncomingMessage) =>
  new Promise<Record<string, unknown> | null>((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      try {
        resolve(text ? (JSON.parse(text) as Record<string, unknown>) : {});
      } catch {
        resolve(null);
      }
    });
  });

const graphError = (message: string, code: number, details?: string, type = 'OAuthException') => ({
  error: {
    message,
    type,
    code,
    ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
    fbtrace_id: randomBytes(8).toString('base64url'),
  },
});

export const startWhatsapp = async (account: WhatsappAccount) => {
  const sent: SentTemplate[] = [];
  /** answers to give next, in order, before the normal one (a status and a body) */
  const script: { status: number; body: unknown }[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const m = /^\/(v\d+\.\d+)\/([^/]+)\/messages$/.exec(url.pathname);
      if (req.method !== 'POST' || !m)
        return send(400, graphError('Unsupported request', 100, undefined, 'GraphMethodException'));
      if (req.headers.authorization !== `Bearer ${account.token}`)
        return send(401, graphError('Invalid OAuth access token - Cannot parse access token', 190));
      if (m[2] !== account.phoneNumberId)
        return send(
          400,
          graphError(
            `Unsupported post request. Object with ID '${m[2]}' does not exist`,
            100,
            undefined,
            'GraphMethodException',
          ),
        );
      const b = await readBody(req);
      const next = script.shift();
      if (next) return send(next.status, next.body);
      if (!b || b.messaging_product !== 'whatsapp')
        return send(400, graphError('(#100) The parameter messaging_product is required.', 100));
      if (b.type !== 'template')
        return send(400, graphError('(#100) Param type must be one of {TEXT, TEMPLATE, …}', 100));
      const to = typeof b.to === 'string' ? b.to : '';
      if (!/^\+?\d{7,15}$/.test(to)) return send(400, graphError('(#100) Invalid parameter', 100, 'to'));
      const t = b.template as {
        name?: unknown;
        language?: { code?: unknown };
        components?: { type?: unknown; parameters?: { type?: unknown; text?: unknown }[] }[];
      };
      const name = typeof t?.name === 'string' ? t.name : '';
      const language = typeof t?.language?.code === 'string' ? t.language.code : '';
      const approved = account.templates[name];
      if (!approved || !approved.languages.includes(language))
        return send(
          404,
          graphError(
            '(#132001) Template name does not exist in the translation',
            132001,
            `template name (${name}) does not exist in ${language}`,
          ),
        );
      const body = (t.components ?? []).find((c) => c.type === 'body');
      const params = body?.parameters ?? [];
      if (params.some((p) => p.type !== 'text' || typeof p.text !== 'string' || p.text === ''))
        return send(400, graphError('(#131008) Required parameter is missing', 131008, 'text'));
      if (params.length !== approved.variables)
        return send(
          400,
          graphError(
            '(#132000) Number of parameters does not match the expected number of params',
            132000,
            `body: number of localizable_params (${params.length}) does not match the expected number of params (${approved.variables})`,
          ),
        );
      const id = `wamid.${randomBytes(24).toString('base64url')}`;
      sent.push({
        id,
        to,
        name,
        language,
        parameters: params.map((p) => String(p.text)),
        version: m[1] ?? '',
      });
      return send(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to.replace(/^\+/, '') }],
        messages: [{ id }],
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** A webhook call of statuses, as Meta sends it: its raw body and signature under `appSecret`. */
  const statusCall = (
    statuses: { id: string; status: string; recipient_id?: string; errors?: unknown[] }[],
    appSecret = account.appSecret,
  ) => {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: account.phoneNumberId },
                statuses: statuses.map((s) => ({
                  id: s.id,
                  status: s.status,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: s.recipient_id ?? '256772123456',
                  ...(s.status === 'failed' ? { errors: s.errors ?? [] } : {}),
                  ...(s.status === 'sent'
                    ? {
                        conversation: { id: randomBytes(8).toString('hex'), origin: { type: 'utility' } },
                        pricing: { billable: true, pricing_model: 'PMP', category: 'utility' },
                      }
                    : {}),
                })),
              },
            },
          ],
        },
      ],
    });
    const signature = `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
    return { body, signature };
  };

  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    script,
    statusCall,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
export type LocalWhatsapp = Awaited<ReturnType<typeof startWhatsapp>>;
