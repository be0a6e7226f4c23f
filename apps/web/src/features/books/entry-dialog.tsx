import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { formatDate, formatMoney } from '@kodi/domain';
import { useT } from '../../lib/i18n.ts';
import { useAccountLabel } from '../../lib/account-label.ts';
import { PageLoader } from '../../components/page-loader.tsx';
import { HeadCell } from '../../components/ui/head-cell.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { recordQuery, useCompanyMoney, type ResourceRow } from '../../lib/resources.ts';
import { entryQuery, type JournalLine } from './books-api.ts';
import { decimalOf, entryTotals } from './books-rules.ts';
import { sourceText } from './journal-texts.ts';
import { usePhone } from '../../lib/use-phone.ts';

const names: Record<string, (r: ResourceRow) => string> = {
  tenants: (r) => [r.first_name, r.last_name].filter(Boolean).join(' '),
  units: (r) => String(r.name ?? ''),
  properties: (r) => String(r.name ?? ''),
  occupancy: (r) => [r.tenant_name, r.unit_name].filter(Boolean).join(' · '),
};

/** A record a line names, by its name once read (its number meanwhile, or when it cannot be read). */
const RecordName = ({ entity, id, label }: { entity: string; id: number; label: string }) => {
  const { td } = useT();
  const record = useQuery({ ...recordQuery(entity, id), staleTime: 60_000, retry: false });
  const name = record.data ? names[entity]?.(record.data) : '';
  return (
    <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontSize: '0.8rem' }}>
      {td(`books.record.${entity}`, `${label}: {name}`, { name: name || `#${id}` })}
    </Box>
  );
};

const DIMS = [
  ['occupancy_id', 'occupancy', 'Lease'],
  ['tenant_id', 'tenants', 'Tenant'],
  ['unit_id', 'units', 'Unit'],
  ['property_id', 'properties', 'Property'],
] as const;
type Dim = (typeof DIMS)[number][0];

/** The records a line names, but those every line of the entry names (shown once, above). */
const LineRecords = ({ line, common }: { line: Partial<Record<Dim, number | null>>; common?: Set<Dim> }) => (
  <>
    {DIMS.map(([key, entity, label]) => {
      const id = line[key];
      return id === null || id === undefined || common?.has(key) ? null : (
        <RecordName key={key} entity={entity} id={id} label={label} />
      );
    })}
  </>
);

/** The records every line of an entry names alike. */
const commonRecords = (lines: readonly JournalLine[]): Set<Dim> =>
  new Set(
    DIMS.map(([key]) => key).filter(
      (key) => lines.length > 0 && lines[0]?.[key] !== null && lines.every((l) => l[key] === lines[0]?.[key]),
    ),
  );

/** One journal entry: its date, memo and source, and its lines with their totals. */
export const EntryDialog = ({
  id,
  onClose,
  onOpen,
}: {
  id: number;
  onClose: () => void;
  /** Opens another entry (the one this one reverses). */
  onOpen: (id: number) => void;
}) => {
  const phone = usePhone();
  const company = useCompanyMoney();
  const { t, td, language } = useT();
  const label = useAccountLabel();
  const money = (v: string) => formatMoney(v, company.currency, company.decimals, language);
  const entry = useQuery(entryQuery(id));
  const e = entry.data;
  const totals = e ? entryTotals(e.lines) : null;
  const common = e ? commonRecords(e.lines) : new Set<Dim>();
  const first = e?.lines[0];
  const side = (l: { debit: string; credit: string }) =>
    Number(l.debit) ? t('books.dr', { amount: money(l.debit) }) : t('books.cr', { amount: money(l.credit) });
  return (
    <Dialog open onClose={onClose} fullScreen={phone} fullWidth maxWidth="md" aria-labelledby="entry-title">
      <DialogTitle id="entry-title">{t('books.entryTitle', { id })}</DialogTitle>
      <DialogContent dividers>
        {entry.isError && (
          <Typography role="alert" color="error">
            {errorMessage(entry.error, t('books.entryLoadFailed'))}
          </Typography>
        )}
        {entry.isPending && <PageLoader />}
        {e && totals && (
          <>
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
              {e.memo}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
              {formatDate(e.date, language)} · {sourceText(e.source, td)}
              {e.source_id !== null ? ` #${e.source_id}` : ''}
              {e.reverses_id !== null && (
                <>
                  {` · ${t('books.reverses')} `}
                  <Link component="button" type="button" onClick={() => onOpen(e.reverses_id ?? 0)}>
                    {t('books.entryNumber', { id: e.reverses_id })}
                  </Link>
                </>
              )}
            </Typography>
            {first && common.size > 0 && (
              <Box sx={{ mb: 2 }}>
                <LineRecords line={Object.fromEntries([...common].map((k) => [k, first[k]]))} />
              </Box>
            )}
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label={t('books.lines')}>
                <TableHead>
                  <TableRow>
                    <HeadCell>{t('books.account')}</HeadCell>
                    {phone ? (
                      <HeadCell align="right">{t('books.debitCredit')}</HeadCell>
                    ) : (
                      <>
                        <HeadCell align="right">{t('books.debit')}</HeadCell>
                        <HeadCell align="right">{t('books.credit')}</HeadCell>
                      </>
                    )}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {e.lines.map((l, i) => (
                    <TableRow key={i}>
                      <TableCell sx={{ minWidth: 180 }}>
                        {l.account_code} {label({ name: l.account_name, role: l.account_role })}
                        <LineRecords line={l} common={common} />
                      </TableCell>
                      {phone ? (
                        <TableCell align="right" sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                          {side(l)}
                        </TableCell>
                      ) : (
                        <>
                          <TableCell align="right" sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                            {Number(l.debit) ? money(l.debit) : ''}
                          </TableCell>
                          <TableCell align="right" sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                            {Number(l.credit) ? money(l.credit) : ''}
                          </TableCell>
                        </>
                      )}
                    </TableRow>
                  ))}
                </TableBody>
                <TableFooter>
                  <TableRow>
                    <HeadCell sx={{ color: 'text.primary' }}>{t('books.total')}</HeadCell>
                    {phone ? (
                      <HeadCell align="right" sx={{ whiteSpace: 'nowrap', color: 'text.primary' }}>
                        {t('books.dr', { amount: money(decimalOf(totals.debit)) })}
                        <br />
                        {t('books.cr', { amount: money(decimalOf(totals.credit)) })}
                      </HeadCell>
                    ) : (
                      <>
                        <HeadCell align="right" sx={{ whiteSpace: 'nowrap', color: 'text.primary' }}>
                          {money(decimalOf(totals.debit))}
                        </HeadCell>
                        <HeadCell align="right" sx={{ whiteSpace: 'nowrap', color: 'text.primary' }}>
                          {money(decimalOf(totals.credit))}
                        </HeadCell>
                      </>
                    )}
                  </TableRow>
                </TableFooter>
              </Table>
            </Box>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('books.dismiss')}</Button>
      </DialogActions>
    </Dialog>
  );
};
