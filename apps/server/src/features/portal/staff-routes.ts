import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  ownerPortalMessages,
  portalAccessBody,
  portalInviteBody,
  portalMessages,
  portalStatuses,
  type Access,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { recordIdParams } from '../../crud/record-route.ts';
import { recordAuditEntry } from '../../modules/audit/audit.ts';
import { smsProvider } from '../../platform/sms.ts';
import { createPortalAccount, setUserActive, updatePortalAccount } from '../../modules/identity/accounts.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import { translate } from '../../plugins/i18n.ts';
import { ownerLanguage, tenantLanguage } from '../../modules/companies/company.ts';
import {
  accountOfRecord,
  companiesUsing,
  companyName,
  issueToken,
  portals,
  queueMessage,
  recordAddresses,
  rethrowAddressTaken,
  type PortalAccount,
  type PortalKind,
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
      .describe(
        'When not sent: the link itself, for staff to give the tenant or owner (WhatsApp, paper); else null',
      ),
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

type RecordRow = {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  country_code: string | null;
};

/** What differs between inviting a tenant and inviting an owner: the rest is one. */
type Invitable = {
  kind: PortalKind;
  entity: 'tenants' | 'owners';
  /** who may invite (tenants: admins and editors; owners: admins and company admins, money matters) */
  invite: Access;
  operations: { invite: string; access: string };
  words: Record<'noEmail' | 'noPhone' | 'alreadyActive' | 'disabled' | 'noAccount', string>;
  /** the record's name and addresses (a company owner: its name as the first name) */
  select: string;
};

const invitables: Invitable[] = [
  {
    kind: 'tenant',
    entity: 'tenants',
    invite: 'canEdit',
    operations: { invite: 'inviteTenantToPortal', access: 'setTenantPortalAccess' },
    words: portalMessages,
    select: 'SELECT id, first_name, last_name, email, phone, country_code FROM tenants',
  },
  {
    kind: 'owner',
    entity: 'owners',
    invite: 'companyAdmin',
    operations: { invite: 'inviteOwnerToPortal', access: 'setOwnerPortalAccess' },
    words: ownerPortalMessages,
    select: `SELECT id, COALESCE(company_name, first_name) AS first_name,
                    CASE WHEN company_name IS NULL THEN last_name ELSE '' END AS last_name,
                    email, phone, NULL AS country_code FROM owners`,
  },
];

/**
 * Staff give a tenant (issue 19) or an owner (issue 27) its portal account: `POST /{tenants|owners}/{id}/invite`
 * (tenants: admins and editors; owners: admins and company admins) queues a single-use link valid 7
 * days by e-mail or SMS (the messages outbox, kind `invitation`); `POST /{tenants|owners}/{id}/portal-access`
 * (admins, company admins) turns the account off (ending its sessions and its links) or on again.
 */
export const portalStaffRoutes = (app: FastifyInstance, ctx: AppContext) => {
  for (const invitable of invitables) invitationRoutes(app, ctx, invitable);
};

const invitationRoutes = (app: FastifyInstance, ctx: AppContext, spec: Invitable) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, config } = ctx;
  const { kind, entity, words } = spec;
  const portal = portals[kind];
  const who = kind === 'tenant' ? 'tenant' : 'owner';

  r.post(
    `/${entity}/:id/invite`,
    {
      config: { access: spec.invite },
      schema: {
        operationId: spec.operations.invite,
        tags: [entity],
        summary: `Invite the ${who} to the ${portal.name}: a single-use link valid 7 days, by e-mail or SMS`,
        description:
          `Creates the ${who}’s portal account (role ${kind}) when it has none and queues the message ` +
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
      const records = await database.query<RecordRow>(`${spec.select} WHERE company_id = $1 AND id = $2`, [
        user.company_id,
        request.params.id,
      ]);
      const record = records[0];
      if (!record) throw new AppError('not_found');
      const addresses = await recordAddresses(database, user.company_id, record);
      const to = channel === 'email' ? addresses.email : addresses.phone;
      if (!to) {
        const message = channel === 'email' ? words.noEmail : words.noPhone;
        throw new AppError('validation_failed', message, { channel: message });
      }

      let account = await accountOfRecord(database, user.company_id, kind, record.id);
      const status = portalStatusOf(account);
      if (status === 'active') throw new AppError('duplicate', words.alreadyActive);
      if (status === 'disabled') throw new AppError('conflict', words.disabled);
      // The addresses it signs in with follow the record's, as they are now, but only those no
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
      const names = { firstName: record.first_name, lastName: record.last_name };
      try {
        if (!account) {
          await createPortalAccount(database, {
            ...signsInWith,
            ...names,
            companyId: user.company_id,
            ...(kind === 'tenant' ? { tenantId: record.id } : { ownerId: record.id }),
          });
        } else {
          await updatePortalAccount(database, account.user.id, { ...signsInWith, ...names });
        }
      } catch (err) {
        // another account took an address between the check and the write (a race): 409, as before
        rethrowAddressTaken(err);
      }
      account = await accountOfRecord(database, user.company_id, kind, record.id);
      if (!account) throw new AppError('not_found');

      const { secret, expiresAt } = await issueToken(ctx, account.user.id, 'invitation', { address: to });
      const company = await companyName(database, user.company_id);
      const link = `${config.publicUrl}${portal.path}/welcome?token=${encodeURIComponent(secret)}`;
      // in the tenant's or the owner's language, else the company's (issue 30)
      const language = await (kind === 'tenant' ? tenantLanguage : ownerLanguage)(
        database,
        user.company_id,
        record.id,
      );
      const values = { company, portal: kind, firstName: record.first_name, days: '7', link };
      const messageId = await queueMessage(database, {
        companyId: user.company_id,
        kind: 'invitation',
        channel,
        to,
        tenantId: kind === 'tenant' ? record.id : null,
        subject:
          channel === 'email' ? translate(language, 'doc.accountMessages.inviteSubject', values) : null,
        body: translate(
          language,
          channel === 'email' ? 'doc.accountMessages.inviteEmail' : 'doc.accountMessages.inviteSms',
          values,
        ),
      });
      await recordAuditEntry(database.db, {
        companyId: user.company_id,
        userId: user.id,
        action: 'access',
        entity,
        recordId: record.id,
        after: { portal_status: 'invited', channel, to },
        summary: `Invited to the ${portal.name} by ${channel === 'email' ? 'e-mail' : 'SMS'}`,
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
    `/${entity}/:id/portal-access`,
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: spec.operations.access,
        tags: [entity],
        summary: `Turn the ${who}’s portal access off (ending its sessions and links) or on again`,
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
      const account = await accountOfRecord(database, user.company_id, kind, request.params.id);
      if (!account) throw new AppError('not_found', words.noAccount);
      const { enabled } = request.body;
      await database.db.transaction(async (tx) => {
        await setUserActive(tx, account.user.id, enabled);
        await recordAuditEntry(tx, {
          companyId: user.company_id,
          userId: user.id,
          action: 'access',
          entity,
          recordId: request.params.id,
          before: { portal_access: account.user.active },
          after: { portal_access: enabled },
          summary: `${kind === 'tenant' ? 'Tenant' : 'Owner'} portal access turned ${enabled ? 'on' : 'off'}`,
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
        portal_status: portalStatusOf(
          await accountOfRecord(database, user.company_id, kind, request.params.id),
        ),
      };
    },
  );
};
