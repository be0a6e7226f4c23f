import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import { useQuery } from '@tanstack/react-query';
import {
  formatDate,
  formatMoney,
  isCompanyAdmin,
  messageChannel,
  type LedgerAnswer,
  type MessageChannel,
} from '@kodi/domain';
import { api } from '../../lib/api-client.ts';
import { downloadFile, listQuery, useCompanyMoney } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { useT } from '../../lib/i18n.ts';

type MessageRow = {
  id: number;
  created_at: string;
  kind: string;
  channel: string;
  status: string;
  subject: string | null;
};

const Section = ({ title, children }: { title: string; children: React.ReactNode }) => {
  const id = useId();
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 3 }}>
      <Typography id={id} variant="h6" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
};

/** A lease's balance today (its ledger). */
const LeaseBalance = ({ occupancyId }: { occupancyId: number }) => {
  const money = useCompanyMoney();
  const { t } = useT();
  const ledger = useQuery({
    queryKey: ['resource', 'occupancy', 'ledger', occupancyId],
    queryFn: ({ signal }) =>
      api.get<LedgerAnswer>(`/occupancy/${occupancyId}/ledger`, { signal, quietForbidden: true }),
  });
  if (!ledger.data) return <span>…</span>;
  const b = ledger.data.balance;
  return (
    <Box component="span" sx={{ fontWeight: 600, color: b > 0 ? 'error.main' : 'text.primary' }}>
      {b < 0
        ? t('entityExtras.credit', {
            amount: formatMoney(-b, money.currency, money.decimals, money.language),
          })
        : t('entityExtras.owes', { amount: formatMoney(b, money.currency, money.decimals, money.language) })}
    </Box>
  );
};

const line = { py: 1, borderTop: 1, borderColor: 'divider' } as const;

/**
 * A tenant's page as the hub (issue 26, 'Money first'): the tenant's leases, current and past, each
 * with its balance and statement; the last payments with their receipts; the messages sent (for
 * company admins, who read the message log). The portal access follows (tenant-portal.tsx).
 */
export const TenantHub = ({ tenantId }: { tenantId: number }) => {
  const money = useCompanyMoney();
  const { t, language } = useT();
  const date = (d: string) => formatDate(d, language);
  const amount = (n: number) => formatMoney(n, money.currency, money.decimals, language);
  const { user } = useSession();
  const byTenant = { field: 'tenant_id', value: tenantId };
  const leases = useQuery(
    listQuery('occupancy', { page: 0, pageSize: 25, sort: '-start_date', filter: byTenant }),
  );
  const payments = useQuery(
    listQuery('payments', { page: 0, pageSize: 5, sort: '-payment_date', filter: byTenant }),
  );
  const admin = isCompanyAdmin(user);
  const messages = useQuery({
    queryKey: ['resource', 'messages', 'tenant', tenantId],
    queryFn: ({ signal }) =>
      api.get<MessageRow[]>('/messages', {
        signal,
        quietForbidden: true,
        query: { tenant_id: tenantId, page_size: 5, sort: '-created_at' },
      }),
    enabled: admin,
  });

  const leaseRows = leases.data?.rows ?? [];
  return (
    <>
      <Section title={t('entityExtras.leases')}>
        {leaseRows.length === 0 ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {leases.isPending ? t('shell.fetching') : t('entityExtras.noLeases')}
          </Typography>
        ) : (
          leaseRows.map((l) => {
            const current = l.occupancy_status === 'active';
            return (
              <Box key={l.id} sx={line} data-testid="tenant-lease">
                <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {String(l.unit_name ?? '')}{' '}
                    <Chip
                      size="small"
                      label={current ? t('entityExtras.current') : t('entityExtras.past')}
                      color={current ? 'success' : 'default'}
                    />
                  </Typography>
                  <LeaseBalance occupancyId={l.id} />
                </Stack>
                <Stack
                  direction="row"
                  sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap' }}
                >
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {date(String(l.start_date))} –{' '}
                    {l.end_date ? date(String(l.end_date)) : t('entityExtras.open')} ·{' '}
                    {amount(Number(l.rate))}{' '}
                    {language === 'en'
                      ? String(l.rent_cycle ?? '')
                      : t('entityExtras.cycle', { cycle: String(l.rent_cycle ?? '') })}
                  </Typography>
                  <Button
                    size="small"
                    startIcon={<PictureAsPdf />}
                    onClick={() =>
                      void downloadFile(`/occupancy/${l.id}/statement.pdf`, `statement_${l.id}.pdf`)
                    }
                  >
                    {t('entityExtras.statement')}
                  </Button>
                </Stack>
              </Box>
            );
          })
        )}
      </Section>

      <Section title={t('entityExtras.lastPayments')}>
        {(payments.data?.rows ?? []).length === 0 ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {payments.isPending ? t('shell.fetching') : t('entityExtras.noPayments')}
          </Typography>
        ) : (
          payments.data?.rows.map((p) => (
            <Stack
              key={p.id}
              direction="row"
              sx={{ ...line, justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}
            >
              <Typography variant="body2">
                {date(String(p.payment_date))} · {amount(Number(p.amount_paid))} · {String(p.unit_name ?? '')}
              </Typography>
              <Link component={RouterLink} to={`/payments/${p.id}/receipt`} variant="body2">
                {t('entityExtras.receiptNo', { number: String(p.receipt_number ?? '') })}
              </Link>
            </Stack>
          ))
        )}
      </Section>

      {admin && (
        <Section title={t('entityExtras.messagesSent')}>
          {(messages.data ?? []).length === 0 ? (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {messages.isPending ? t('shell.fetching') : t('entityExtras.noMessages')}
            </Typography>
          ) : (
            messages.data?.map((m) => (
              <Typography key={m.id} variant="body2" sx={line}>
                {date(m.created_at.slice(0, 10))} ·{' '}
                {messageChannel.labels[m.channel as MessageChannel] ?? m.channel} · {m.kind} · {m.status}
                {m.subject ? ` · ${m.subject}` : ''}
              </Typography>
            ))
          )}
        </Section>
      )}
    </>
  );
};
