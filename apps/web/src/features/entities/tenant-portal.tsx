import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { canEdit, isCompanyAdmin, ownerPortalMessages, portalMessages } from '@kodi/domain';
import { api, errorMessage } from '../../lib/api-client.ts';
import { resourceKeys } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { useT } from '../../lib/i18n.ts';

/** What differs between a tenant's portal account and an owner's (issue 27). */
const PORTALS = {
  tenants: {
    title: 'entityExtras.tenantPortal',
    canInvite: canEdit,
    copyLink: portalMessages.copyLink,
  },
  owners: {
    title: 'entityExtras.ownerPortal',
    canInvite: isCompanyAdmin,
    copyLink: ownerPortalMessages.copyLink,
  },
} as const;

/**
 * A tenant's (issue 19) or an owner's (issue 27) portal account in its details: its state, the
 * invitation by e-mail or SMS (tenants: admins and editors; owners: admins and company admins), and
 * access on or off (admins and company admins).
 */
export const PortalAccount = ({
  entity,
  record: tenant,
}: {
  entity: keyof typeof PORTALS;
  record: { id: number; portal_status?: string | null; email?: string | null };
}) => {
  const portal = PORTALS[entity];
  const { t } = useT();
  const headingId = useId();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState(tenant.portal_status ?? 'none');
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  // an invitation that could not go out (no e-mail or SMS set up): its link, to give by hand
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);

  type Answer = { portal_status: string; not_sent?: string | null; link?: string | null };
  const run = async (call: () => Promise<Answer>, done: string) => {
    setBusy(true);
    setNote(null);
    setLink(null);
    setCopied(false);
    try {
      const answer = await call();
      setStatus(answer.portal_status);
      if (answer.not_sent) {
        setNote({ ok: false, text: `${answer.not_sent}. ${portal.copyLink}` });
        setLink(answer.link ?? null);
      } else setNote({ ok: true, text: done });
      await queryClient.invalidateQueries({ queryKey: resourceKeys.entity(entity) });
    } catch (e) {
      setNote({ ok: false, text: errorMessage(e, t('entityExtras.tryAgain')) });
    } finally {
      setBusy(false);
    }
  };
  const invite = (channel: 'email' | 'sms') =>
    run(
      () => api.post<Answer>(`/${entity}/${tenant.id}/invite`, { channel }),
      channel === 'email' ? t('entityExtras.invitedByEmail') : t('entityExtras.invitedBySms'),
    );
  const access = (enabled: boolean) =>
    run(
      () => api.post<{ portal_status: string }>(`/${entity}/${tenant.id}/portal-access`, { enabled }),
      enabled ? t('entityExtras.accessOn') : t('entityExtras.accessOff', { who: entity }),
    );

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h3">
        {t(portal.title)}
      </Typography>
      <Typography sx={{ mb: 1 }} data-testid="portal-status">
        {t('entityExtras.portalStatus', { status })}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        {portal.canInvite(user) && (status === 'none' || status === 'invited') ? (
          <>
            <Button
              size="small"
              variant="outlined"
              disabled={busy || !tenant.email}
              onClick={() => void invite('email')}
            >
              {t('entityExtras.inviteByEmail')}
            </Button>
            <Button size="small" variant="outlined" disabled={busy} onClick={() => void invite('sms')}>
              {t('entityExtras.inviteBySms')}
            </Button>
          </>
        ) : null}
        {isCompanyAdmin(user) && status !== 'none' ? (
          <Button
            size="small"
            variant="outlined"
            color={status === 'disabled' ? 'primary' : 'warning'}
            disabled={busy}
            onClick={() => void access(status === 'disabled')}
          >
            {status === 'disabled' ? t('entityExtras.turnOn') : t('entityExtras.turnOff')}
          </Button>
        ) : null}
      </Stack>
      {note ? (
        <Alert severity={note.ok ? 'success' : link ? 'warning' : 'error'} sx={{ mt: 1 }}>
          {note.text}
        </Alert>
      ) : null}
      {link ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ mt: 1, gap: 1, alignItems: { sm: 'center' } }}>
          <TextField
            size="small"
            label={t('entityExtras.invitationLink')}
            value={link}
            slotProps={{ htmlInput: { readOnly: true } }}
            onFocus={(e) => e.target.select()}
            sx={{ flex: 1, minWidth: 0 }}
          />
          <Button
            size="small"
            variant="contained"
            onClick={() =>
              void navigator.clipboard?.writeText(link).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {copied ? t('entityExtras.copied') : t('entityExtras.copyLink')}
          </Button>
        </Stack>
      ) : null}
    </Box>
  );
};

/** A tenant's portal account in its details (issue 19). */
export const TenantPortal = ({
  tenant,
}: {
  tenant: { id: number; portal_status: string | null; email: string | null };
}) => <PortalAccount entity="tenants" record={tenant} />;
