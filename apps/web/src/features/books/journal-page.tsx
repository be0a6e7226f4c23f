import { useState } from 'react';
import { ExportButtons } from '../../components/export-buttons.tsx';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import Visibility from '@mui/icons-material/Visibility';
import { useQuery } from '@tanstack/react-query';
import { formatDate, formatMoney, isCompanyAdmin } from '@kodi/domain';
import { useErrorSnackbar } from '../../components/snackbar-provider.tsx';
import { ListTable, RowAction, type ListColumn } from '../../components/ui/list-table.tsx';
import { ListToolbar } from '../../components/ui/list-toolbar.tsx';
import { useListState } from '../../components/ui/use-list-state.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { accountsQuery, journalQuery, type JournalFilters } from './books-api.ts';
import { decimalOf, entryTotals, journalSources } from './books-rules.ts';
import { sourceText } from './journal-texts.ts';
import { useT, type Translate } from '../../lib/i18n.ts';
import { useAccountLabel } from '../../lib/account-label.ts';
import { BooksClose } from './books-close.tsx';
import { EntryDialog } from './entry-dialog.tsx';
import { NewEntryDialog } from './new-entry-dialog.tsx';

const columns = (t: Translate): ListColumn[] => [
  { key: 'date', label: t('books.date'), sortField: 'date' },
  { key: 'id', label: t('books.number'), align: 'right' },
  { key: 'memo', label: t('books.memo') },
  { key: 'source', label: t('books.source') },
  { key: 'debit', label: t('books.debits'), align: 'right' },
  { key: 'credit', label: t('books.credits'), align: 'right' },
];

const stickyActions = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: 'inset 1px 0 0 rgba(0, 0, 0, 0.08)',
  whiteSpace: 'nowrap',
} as const;

/**
 * 'Journal' (Finance, any staff): every posted entry, newest first, filtered by days, account and
 * source and searched by memo; an entry's lines in its dialog; admins and company admins post manual
 * entries and close the books.
 */
export const JournalPage = () => {
  const { user } = useSession();
  const admin = isCompanyAdmin(user);
  const company = useCompanyMoney();
  const { t, td, language } = useT();
  const label = useAccountLabel();
  const money = (c: bigint) => formatMoney(decimalOf(c), company.currency, company.decimals, language);
  const listState = useListState({ resetPageOnSort: true });
  const [filters, setFilters] = useState<JournalFilters>({});
  const [shown, setShown] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const list = useQuery(journalQuery({ ...listState.params, ...filters }));
  const accounts = useQuery(accountsQuery());
  const rows = list.data?.rows ?? [];
  const loadError = list.isError ? errorMessage(list.error, t('books.journalLoadFailed')) : null;
  useErrorSnackbar(loadError);
  const set = (key: keyof JournalFilters) => (e: { target: { value: string } }) => {
    setFilters((f) => ({ ...f, [key]: e.target.value }));
    listState.setPage(0);
  };

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          {t('books.journalTitle')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('books.journalIntro')}
        </Typography>
      </Box>
      <BooksClose canClose={admin} />
      <ListToolbar label={t('books.searchMemos')} value={listState.search} onChange={listState.setSearch}>
        <ExportButtons
          path="/journal"
          label={t('books.exportJournal')}
          filename="journal"
          params={{
            q: listState.search || undefined,
            from: filters.from || undefined,
            to: filters.to || undefined,
            account_id: filters.account_id || undefined,
            source: filters.source || undefined,
          }}
        />
        {admin && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setAdding(true)}>
            {t('books.newEntry')}
          </Button>
        )}
      </ListToolbar>
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: '1fr 1fr', md: '160px 160px minmax(200px, 1fr) 200px' },
        }}
      >
        <TextField
          size="small"
          type="date"
          label={t('books.from')}
          value={filters.from ?? ''}
          onChange={set('from')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label={t('books.to')}
          value={filters.to ?? ''}
          onChange={set('to')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          select
          size="small"
          label={t('books.account')}
          value={filters.account_id ?? ''}
          onChange={set('account_id')}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}
        >
          <MenuItem value="">{t('books.allAccounts')}</MenuItem>
          {(accounts.data ?? []).map((a) => (
            <MenuItem key={a.id} value={String(a.id)}>
              {a.code} {label(a)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('books.source')}
          value={filters.source ?? ''}
          onChange={set('source')}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}
        >
          <MenuItem value="">{t('books.allSources')}</MenuItem>
          {journalSources.map((s) => (
            <MenuItem key={s} value={s}>
              {sourceText(s, td)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <ListTable
        label={t('books.journalTitle')}
        list={listState}
        query={list}
        announceLoading
        emptyText={loadError ?? t('books.noEntriesMatch')}
        columns={columns(t)}
        actionsSx={stickyActions}
      >
        {rows.map((e) => {
          const totals = entryTotals(e.lines);
          return (
            <TableRow key={e.id} hover>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(e.date, language)}</TableCell>
              <TableCell align="right" sx={{ color: 'text.secondary' }}>
                {e.id}
              </TableCell>
              <TableCell sx={{ minWidth: 200 }}>{e.memo}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{sourceText(e.source, td)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {money(totals.debit)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {money(totals.credit)}
              </TableCell>
              <TableCell align="right" sx={stickyActions}>
                <RowAction
                  label={t('books.viewEntry', { id: e.id })}
                  icon={<Visibility fontSize="small" />}
                  onClick={() => setShown(e.id)}
                />
              </TableCell>
            </TableRow>
          );
        })}
      </ListTable>
      {shown !== null && (
        <EntryDialog key={shown} id={shown} onClose={() => setShown(null)} onOpen={setShown} />
      )}
      {adding && (
        <NewEntryDialog
          onClose={() => setAdding(false)}
          onPosted={(id) => {
            setAdding(false);
            setShown(id);
          }}
        />
      )}
    </Stack>
  );
};
