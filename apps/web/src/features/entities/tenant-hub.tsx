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
        ? `Credit ${formatMoney(-b, money.currency, money.decimals)}`
        : `Owes ${formatMoney(b, money.currency, money.decimals)}`}
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
      <Section title="Leases">
        {leaseRows.length === 0 ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {leases.isPending ? 'Fetching data...' : 'No leases.'}
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
                      label={current ? 'Current' : 'Past'}
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
                    {formatDate(String(l.start_date))} –{' '}
                    {l.end_date ? formatDate(String(l.end_date)) : 'open'} ·{' '}
                    {formatMoney(Number(l.rate), money.currency, money.decimals)} {String(l.rent_cycle ?? '')}
                  </Typography>
                  <Button
                    size="small"
                    startIcon={<PictureAsPdf />}
                    onClick={() =>
                      void downloadFile(`/occupancy/${l.id}/statement.pdf`, `statement_${l.id}.pdf`)
                    }
                  >
                    Statement
                  </Button>
                </Stack>
              </Box>
            );
          })
        )}
      </Section>

      <Section title="Last payments">
        {(payments.data?.rows ?? []).length === 0 ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {payments.isPending ? 'Fetching data...' : 'No payments yet.'}
          </Typography>
        ) : (
          payments.data?.rows.map((p) => (
            <Stack
              key={p.id}
              direction="row"
              sx={{ ...line, justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}
            >
              <Typography variant="body2">
                {formatDate(String(p.payment_date))} ·{' '}
                {formatMoney(Number(p.amount_paid), money.currency, money.decimals)} ·{' '}
                {String(p.unit_name ?? '')}
              </Typography>
              <Link component={RouterLink} to={`/payments/${p.id}/receipt`} variant="body2">
                Receipt {String(p.receipt_number ?? '')}
              </Link>
            </Stack>
          ))
        )}
      </Section>

      {admin && (
        <Section title="Messages sent">
          {(messages.data ?? []).length === 0 ? (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {messages.isPending ? 'Fetching data...' : 'No messages.'}
            </Typography>
          ) : (
            messages.data?.map((m) => (
              <Typography key={m.id} variant="body2" sx={line}>
                {formatDate(m.created_at.slice(0, 10))} ·{' '}
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
