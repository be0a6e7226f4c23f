import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, portalAccessBody, portalInviteBody, portalMessages, portalStatuses } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { recordIdParams } from '../../crud/record-route.ts';
import { recordAuditEntry } from '../../modules/audit/audit.ts';
import { smsProvider } from '../../platform/sms.ts';
import { createPortalAccount, setUserActive, updatePortalAccount } from '../../modules/identity/accounts.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import {
  accountOfTenant,
  companiesUsing,
  companyName,
  issueToken,
  queueMessage,
  rethrowAddressTaken,
  tenantAddresses,
  type PortalAccount,
} from './accounts.ts';

const portalStatusSchema = z.enum(portalStatuses);
const invitationSchema = named(
  z.object({
    portal_status: portalStatusSchema,
    expires_at: z.string(),
    message_id: z.int(),
    sent: z.boolean().describe('Whether the message can go out: false when the channel is not set up'),
    not_sent: z
      .string()
      .nullable()
      .describe("Why it is not sent ('Not sent: e-mail is not set up'), else null"),
    link: z
      .string()
      .nullable()
      .describe('When not sent: the link itself, for staff to give the tenant (WhatsApp, paper); else null'),
  }),
  'PortalInvitation',
);
const accessSchema = named(z.object({ portal_status: portalStatusSchema }), 'PortalAccess');

/** A portal account's state: none (no account), invited (no password yet), active, disabled. */
export const portalStatusOf = (account: PortalAccount | undefined) =>
  !account
    ? ('none' as const)
    : !account.user.active
      ? ('disabled' as const)
      : account.passwordHash
        ? ('active' as const)
        : ('invited' as const);

type TenantRow = {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  country_code: string | null;
};

/**
 * Staff give a tenant its portal account (issue 19): `POST /tenants/{id}/invite` (admins and editors)
 * queues a single-use link valid 7 days by e-mail or SMS (the messages outbox, kind `invitation`);
 * `POST /tenants/{id}/portal-access` (admins, company admins) turns the account off (ending its
 * sessions and its links) or on again.
 */
export const portalStaffRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, config } = ctx;

  r.post(
    '/tenants/:id/invite',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'inviteTenantToPortal',
        tags: ['tenants'],
        summary: 'Invite the tenant to the portal: a single-use link valid 7 days, by e-mail or SMS',
        description:
          'Creates the tenant’s portal account (role tenant) when it has none and queues the message ' +
          '(kind invitation); a new invitation makes the earlier links void.',
        params: recordIdParams,
        body: portalInviteBody,
        response: {
          201: json(invitationSchema, 'The invitation is queued (or, with no provider, its link given)'),
          ...errors(404, 409),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { channel } = request.body;
      const tenants = await database.query<TenantRow>(
        `SELECT id, first_name, last_name, email, phone, country_code FROM tenants WHERE company_id = $1 AND id = $2`,
        [user.company_id, request.params.id],
      );
      const tenant = tenants[0];
      if (!tenant) throw new AppError('not_found');
      const addresses = await tenantAddresses(database, user.company_id, tenant);
      const to = channel === 'email' ? addresses.email : addresses.phone;
      if (!to) {
        const message = channel === 'email' ? portalMessages.noEmail : portalMessages.noPhone;
        throw new AppError('validation_failed', message, { channel: message });
      }

      let account = await accountOfTenant(database, user.company_id, tenant.id);
      const status = portalStatusOf(account);
      if (status === 'active') throw new AppError('duplicate', portalMessages.alreadyActive);
      if (status === 'disabled') throw new AppError('conflict', portalMessages.disabled);
      // The addresses it signs in with follow the tenant record's, as they are now, but only those no
      // other account uses. Another account of this company may be named (the editor sees its
      // tenants and staff); another company's never is (issue 23): the invitation goes out all the
      // same, and only its holder, accepting it, is told that the address is taken.
      const own = account?.user.id ?? 0;
      const signsInWith = { email: addresses.email, phone: addresses.phone };
      for (const field of ['email', 'phone'] as const) {
        const address = signsInWith[field];
        if (!address) continue;
        const companies = await companiesUsing(database, address, own);
        if (companies.includes(user.company_id))
          throw new AppError('duplicate', portalMessages.addressTaken, {
            [field]: portalMessages.addressTaken,
          });
        if (companies.length > 0) signsInWith[field] = null;
      }
      try {
        if (!account) {
          await createPortalAccount(database, {
            email: signsInWith.email,
            phone: signsInWith.phone,
            firstName: tenant.first_name,
            lastName: tenant.last_name,
            companyId: user.company_id,
            tenantId: tenant.id,
          });
        } else {
          await updatePortalAccount(database, account.user.id, {
            email: signsInWith.email,
            phone: signsInWith.phone,
            firstName: tenant.first_name,
            lastName: tenant.last_name,
          });
        }
      } catch (err) {
        // another account took an address between the check and the write (a race): 409, as before
        rethrowAddressTaken(err);
      }
      account = await accountOfTenant(database, user.company_id, tenant.id);
      if (!account) throw new AppError('not_found');

      const { secret, expiresAt } = await issueToken(ctx, account.user.id, 'invitation', { address: to });
      const company = await companyName(database, user.company_id);
      const link = `${config.publicUrl}/portal/welcome?token=${encodeURIComponent(secret)}`;
      const messageId = await queueMessage(database, {
        companyId: user.company_id,
        kind: 'invitation',
        channel,
        to,
        tenantId: tenant.id,
        subject: channel === 'email' ? `${company}: your tenant portal` : null,
        body:
          channel === 'email'
            ? `Hello ${tenant.first_name},\n\n${company} invites you to its tenant portal: see your balance, ` +
              `statements and receipts, and report repairs from your phone.\n\nSet your password here ` +
              `(the link works once, for ${7} days):\n${link}\n`
            : `${company}: your tenant portal. Set your password (link valid 7 days): ${link}`,
      });
      await recordAuditEntry(database.db, {
        companyId: user.company_id,
        userId: user.id,
        action: 'access',
        entity: 'tenants',
        recordId: tenant.id,
        after: { portal_status: 'invited', channel, to },
        summary: `Invited to the tenant portal by ${channel === 'email' ? 'e-mail' : 'SMS'}`,
      });
      // nothing says 'sent' when nothing is: with no SMTP_URL (SMS_URL) the staff get the link (issue 26)
      const canSend = channel === 'email' ? !!config.smtpUrl : !!smsProvider(config.smsUrl);
      return reply.code(201).send({
        portal_status: 'invited' as const,
        expires_at: expiresAt.toISOString(),
        message_id: messageId,
        sent: canSend,
        not_sent: canSend
          ? null
          : channel === 'email'
            ? portalMessages.emailNotSetUp
            : portalMessages.smsNotSetUp,
        link: canSend ? null : link,
      });
    },
  );

  r.post(
    '/tenants/:id/portal-access',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'setTenantPortalAccess',
        tags: ['tenants'],
        summary: 'Turn the tenant’s portal access off (ending its sessions and links) or on again',
        params: recordIdParams,
        body: portalAccessBody,
        response: {
          200: json(accessSchema, 'Its state now'),
          ...errors(404),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const account = await accountOfTenant(database, user.company_id, request.params.id);
      if (!account) throw new AppError('not_found', portalMessages.noAccount);
      const { enabled } = request.body;
      await database.db.transaction(async (tx) => {
        await setUserActive(tx, account.user.id, enabled);
        await recordAuditEntry(tx, {
          companyId: user.company_id,
          userId: user.id,
          action: 'access',
          entity: 'tenants',
          recordId: request.params.id,
          before: { portal_access: account.user.active },
          after: { portal_access: enabled },
          summary: `Tenant portal access turned ${enabled ? 'on' : 'off'}`,
        });
      });
      if (!enabled) {
        await ctx.sessions.endAllForUser(account.user.id);
        await database.query(
          'UPDATE portal_tokens SET used_at = now(), updated_at = now() WHERE user_id = $1 AND used_at IS NULL',
          [account.user.id],
        );
      }
      return {
        portal_status: portalStatusOf(await accountOfTenant(database, user.company_id, request.params.id)),
      };
    },
  );
};
