import { useId, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import { useQuery } from '@tanstack/react-query';
import {
  canEdit,
  chargeCategory,
  formatDate,
  formatMoney,
  isCompanyAdmin,
  paymentMethod,
  type Charge,
} from '@kodi/domain';
import { errorMessage } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { HeadCell } from '../../components/ui/head-cell.tsx';
import { chargesQuery, rateChangesQuery, settlementQuery } from './lease-api.ts';
import { AddChargeDialog, DepositDialog, RateChangeDialog, WaiveDialog } from './lease-dialogs.tsx';

type LeaseRecord = { id: number; deposit_amount?: number | null; rate?: number | null };

const useMoney = () => {
  const company = useCompanyMoney();
  return (n: number) => formatMoney(n, company.currency, company.decimals);
};

const Heading = ({ id, title, action }: { id: string; title: string; action?: ReactNode }) => (
  <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap', rowGap: 1 }}>
    <Typography id={id} variant="h6" component="h3">
      {title}
    </Typography>
    <Box sx={{ flexGrow: 1 }} />
    {action}
  </Stack>
);

const tableBox = { border: 1, borderColor: 'divider', borderRadius: 1, maxHeight: 280 } as const;

const chargeText = (c: Charge) =>
  c.kind === 'late_fee'
    ? c.description
    : `${c.category ? `${chargeCategory.labels[c.category]}: ` : ''}${c.description}`;

/** Charges and fees: the lease's late fees and other charges, each waivable once (admins, company admins). */
const ChargesPart = ({ lease }: { lease: LeaseRecord }) => {
  const headingId = useId();
  const money = useMoney();
  const { user } = useSession();
  const query = useQuery(chargesQuery(lease.id));
  const [adding, setAdding] = useState(false);
  const [waiving, setWaiving] = useState<Charge | null>(null);
  const charges = query.data ?? [];
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Heading
        id={headingId}
        title="Charges and fees"
        action={
          canEdit(user) && (
            <Button size="small" variant="outlined" startIcon={<Add />} onClick={() => setAdding(true)}>
              Add charge
            </Button>
          )
        }
      />
      {query.isError ? (
        <Alert severity="error">{errorMessage(query.error, 'Failed to load the charges.')}</Alert>
      ) : charges.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {query.isPending ? 'Loading ... Please wait' : 'No late fees or other charges.'}
        </Typography>
      ) : (
        <TableContainer sx={tableBox}>
          <Table size="small" stickyHeader aria-labelledby={headingId}>
            <TableHead>
              <TableRow>
                <HeadCell>Date</HeadCell>
                <HeadCell>Description</HeadCell>
                <HeadCell align="right">Amount</HeadCell>
                <HeadCell>Status</HeadCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {charges.map((c) => (
                <TableRow key={c.id} data-testid={`charge-${c.id}`}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(c.date)}</TableCell>
                  <TableCell>{chargeText(c)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {money(c.amount)}
                  </TableCell>
                  <TableCell>
                    {c.waiver ? (
                      <Chip size="small" label={`Waived ${formatDate(c.waiver.date)}: ${c.waiver.reason}`} />
                    ) : isCompanyAdmin(user) ? (
                      <Button
                        size="small"
                        onClick={() => setWaiving(c)}
                        aria-label={`Waive ${chargeText(c)} of ${formatDate(c.date)}`}
                      >
                        Waive
                      </Button>
                    ) : (
                      'Owed'
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {adding && <AddChargeDialog open occupancyId={lease.id} onClose={() => setAdding(false)} />}
      {waiving && <WaiveDialog open charge={waiving} onClose={() => setWaiving(null)} />}
    </Box>
  );
};

/** Rent changes: the lease's rates from their days on (staff's, and its escalation rule's). */
const RatesPart = ({ lease }: { lease: LeaseRecord }) => {
  const headingId = useId();
  const money = useMoney();
  const { user } = useSession();
  const query = useQuery(rateChangesQuery(lease.id));
  const [adding, setAdding] = useState(false);
  const changes = query.data ?? [];
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Heading
        id={headingId}
        title="Rent changes"
        action={
          canEdit(user) && (
            <Button size="small" variant="outlined" startIcon={<Add />} onClick={() => setAdding(true)}>
              Add rate change
            </Button>
          )
        }
      />
      {query.isError ? (
        <Alert severity="error">{errorMessage(query.error, 'Failed to load the rate changes.')}</Alert>
      ) : changes.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {query.isPending
            ? 'Loading ... Please wait'
            : `No rate changes: ${lease.rate === null || lease.rate === undefined ? 'the lease rate' : money(lease.rate)} from the start.`}
        </Typography>
      ) : (
        <TableContainer sx={tableBox}>
          <Table size="small" aria-labelledby={headingId}>
            <TableHead>
              <TableRow>
                <HeadCell>From</HeadCell>
                <HeadCell align="right">Rate</HeadCell>
                <HeadCell>Source</HeadCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {changes.map((r) => (
                <TableRow key={r.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(r.effective_date)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {money(r.rate)}
                  </TableCell>
                  <TableCell>{r.source === 'escalation' ? 'Escalation rule' : 'Added by staff'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {adding && <RateChangeDialog open occupancyId={lease.id} onClose={() => setAdding(false)} />}
    </Box>
  );
};

/** Deposit: its settlement, or the button that settles it at the end of the lease. */
const DepositPart = ({ lease }: { lease: LeaseRecord }) => {
  const headingId = useId();
  const money = useMoney();
  const { user } = useSession();
  const query = useQuery(settlementQuery(lease.id));
  const [settling, setSettling] = useState(false);
  const deposit = Number(lease.deposit_amount ?? 0);
  if (!(deposit > 0)) return null;
  const s = query.data;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Heading
        id={headingId}
        title="Deposit"
        action={
          canEdit(user) &&
          query.data === null && (
            <Button size="small" variant="outlined" onClick={() => setSettling(true)}>
              Settle deposit
            </Button>
          )
        }
      />
      {query.isError ? (
        <Alert severity="error">{errorMessage(query.error, 'Failed to load the deposit settlement.')}</Alert>
      ) : s ? (
        <Typography variant="body2" data-testid="deposit-settlement">
          Settled {formatDate(s.date)}: {money(s.deposit_amount)} deposit, deductions{' '}
          {money(s.deductions_total)}, {money(s.applied_amount)} applied to the balance,{' '}
          {money(s.refund_amount)} refunded
          {s.refund_method
            ? ` (${paymentMethod.labels[s.refund_method as 'cash'] ?? s.refund_method})`
            : ''}{' '}
          — {s.deposit_status === 'forfeited' ? 'forfeited' : 'returned'}.
        </Typography>
      ) : (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {query.isPending ? 'Loading ... Please wait' : `${money(deposit)} held, not settled yet.`}
        </Typography>
      )}
      {settling && (
        <DepositDialog open occupancyId={lease.id} deposit={deposit} onClose={() => setSettling(false)} />
      )}
    </Box>
  );
};

/**
 * A lease's charges beyond rent (and their waivers), its rent changes and its deposit settlement,
 * in its details dialog under the ledger.
 */
export const LeaseChargesSection = ({ lease }: { lease: LeaseRecord }) => (
  <>
    <ChargesPart lease={lease} />
    <RatesPart lease={lease} />
    <DepositPart lease={lease} />
  </>
);
