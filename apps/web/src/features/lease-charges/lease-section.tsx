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
import { canEdit, chargeCategory, formatDate, formatMoney, isCompanyAdmin, type Charge } from '@kodi/domain';
import { useT, type TranslateDerived } from '../../lib/i18n.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { HeadCell } from '../../components/ui/head-cell.tsx';
import { chargesQuery, rateChangesQuery, settlementQuery } from './lease-api.ts';
import {
  AddChargeDialog,
  DepositDialog,
  methodText,
  RateChangeDialog,
  WaiveDialog,
} from './lease-dialogs.tsx';

type LeaseRecord = { id: number; deposit_amount?: number | null; rate?: number | null };

const useMoney = () => {
  const company = useCompanyMoney();
  const { language } = useT();
  return (n: number) => formatMoney(n, company.currency, company.decimals, language);
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

/** A charge's category and description; the category in the page's language (`lease.chargeCategory.<category>`). */
const chargeText = (c: Charge, td: TranslateDerived) =>
  c.kind === 'late_fee'
    ? c.description
    : `${c.category ? `${td(`lease.chargeCategory.${c.category}`, chargeCategory.labels[c.category])}: ` : ''}${c.description}`;

/** Charges and fees: the lease's late fees and other charges, each waivable once (admins, company admins). */
const ChargesPart = ({ lease }: { lease: LeaseRecord }) => {
  const headingId = useId();
  const money = useMoney();
  const { t, td, language } = useT();
  const { user } = useSession();
  const query = useQuery(chargesQuery(lease.id));
  const [adding, setAdding] = useState(false);
  const [waiving, setWaiving] = useState<Charge | null>(null);
  const charges = query.data ?? [];
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Heading
        id={headingId}
        title={t('lease.chargesTitle')}
        action={
          canEdit(user) && (
            <Button size="small" variant="outlined" startIcon={<Add />} onClick={() => setAdding(true)}>
              {t('lease.addCharge')}
            </Button>
          )
        }
      />
      {query.isError ? (
        <Alert severity="error">{errorMessage(query.error, t('lease.chargesLoadFailed'))}</Alert>
      ) : charges.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {query.isPending ? t('lease.loading') : t('lease.noCharges')}
        </Typography>
      ) : (
        <TableContainer sx={tableBox}>
          <Table size="small" stickyHeader aria-labelledby={headingId}>
            <TableHead>
              <TableRow>
                <HeadCell>{t('lease.date')}</HeadCell>
                <HeadCell>{t('lease.description')}</HeadCell>
                <HeadCell align="right">{t('lease.amount')}</HeadCell>
                <HeadCell>{t('lease.status')}</HeadCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {charges.map((c) => (
                <TableRow key={c.id} data-testid={`charge-${c.id}`}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(c.date, language)}</TableCell>
                  <TableCell>{chargeText(c, td)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {money(c.amount)}
                  </TableCell>
                  <TableCell>
                    {c.waiver ? (
                      <Chip
                        size="small"
                        label={t('lease.waived', {
                          date: formatDate(c.waiver.date, language),
                          reason: c.waiver.reason,
                        })}
                      />
                    ) : isCompanyAdmin(user) ? (
                      <Button
                        size="small"
                        onClick={() => setWaiving(c)}
                        aria-label={t('lease.waiveOf', {
                          charge: chargeText(c, td),
                          date: formatDate(c.date, language),
                        })}
                      >
                        {t('lease.waive')}
                      </Button>
                    ) : (
                      t('lease.owed')
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
  const { t, language } = useT();
  const { user } = useSession();
  const query = useQuery(rateChangesQuery(lease.id));
  const [adding, setAdding] = useState(false);
  const changes = query.data ?? [];
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Heading
        id={headingId}
        title={t('lease.ratesTitle')}
        action={
          canEdit(user) && (
            <Button size="small" variant="outlined" startIcon={<Add />} onClick={() => setAdding(true)}>
              {t('lease.addRateChange')}
            </Button>
          )
        }
      />
      {query.isError ? (
        <Alert severity="error">{errorMessage(query.error, t('lease.ratesLoadFailed'))}</Alert>
      ) : changes.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {query.isPending
            ? t('lease.loading')
            : lease.rate === null || lease.rate === undefined
              ? t('lease.noRateChangesRate')
              : t('lease.noRateChanges', { rate: money(lease.rate) })}
        </Typography>
      ) : (
        <TableContainer sx={tableBox}>
          <Table size="small" aria-labelledby={headingId}>
            <TableHead>
              <TableRow>
                <HeadCell>{t('lease.from')}</HeadCell>
                <HeadCell align="right">{t('lease.rate')}</HeadCell>
                <HeadCell>{t('lease.source')}</HeadCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {changes.map((r) => (
                <TableRow key={r.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatDate(r.effective_date, language)}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {money(r.rate)}
                  </TableCell>
                  <TableCell>
                    {r.source === 'escalation' ? t('lease.escalation') : t('lease.byStaff')}
                  </TableCell>
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
  const { t, td, language } = useT();
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
        title={t('lease.depositTitle')}
        action={
          canEdit(user) &&
          query.data === null && (
            <Button size="small" variant="outlined" onClick={() => setSettling(true)}>
              {t('lease.settleDeposit')}
            </Button>
          )
        }
      />
      {query.isError ? (
        <Alert severity="error">{errorMessage(query.error, t('lease.settlementLoadFailed'))}</Alert>
      ) : s ? (
        <Typography variant="body2" data-testid="deposit-settlement">
          {t('lease.settled', {
            date: formatDate(s.date, language),
            deposit: money(s.deposit_amount),
            deductions: money(s.deductions_total),
            applied: money(s.applied_amount),
            refund: money(s.refund_amount),
            method: s.refund_method ? ` (${methodText(s.refund_method, td)})` : '',
            status: s.deposit_status === 'forfeited' ? 'forfeited' : 'returned',
          })}
        </Typography>
      ) : (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {query.isPending ? t('lease.loading') : t('lease.heldNotSettled', { amount: money(deposit) })}
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
export const LeaseChargesSection = ({ lease }: { lease: LeaseRecord }) => {
  return (
    <>
      <ChargesPart lease={lease} />
      <RatesPart lease={lease} />
      <DepositPart lease={lease} />
    </>
  );
};
