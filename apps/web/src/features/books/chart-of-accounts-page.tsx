import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Edit from '@mui/icons-material/Edit';
import ToggleOff from '@mui/icons-material/ToggleOff';
import ToggleOn from '@mui/icons-material/ToggleOn';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatMoney, isCompanyAdmin } from '@kodi/domain';
import { ConfirmDeleteDialog } from '../../components/resource/confirm-delete-dialog.tsx';
import { useErrorSnackbar, useSnackbar } from '../../components/snackbar-provider.tsx';
import { HeadCell } from '../../components/ui/head-cell.tsx';
import { RowAction } from '../../components/ui/list-table.tsx';
import { ListToolbar } from '../../components/ui/list-toolbar.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { AccountFormDialog } from './account-form-dialog.tsx';
import { accountsQuery, booksKeys, deleteAccount, updateAccount, type LedgerAccount } from './books-api.ts';
import { accountTypes } from './books-rules.ts';
import { accountTypeText, roleText } from './books-texts.ts';
import { useAccountLabel } from '../../lib/account-label.ts';
import { useT } from '../../lib/i18n.ts';
import { usePhone } from '../../lib/use-phone.ts';

/** The Actions column stays in view when the table scrolls sideways (as the entity lists'). */
const stickyActions = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: 'inset 1px 0 0 rgba(0, 0, 0, 0.08)',
  whiteSpace: 'nowrap',
} as const;

type Editing = { account: LedgerAccount | null } | null;

type ActionsProps = {
  a: LedgerAccount;
  onEdit: (a: LedgerAccount) => void;
  onToggle: (a: LedgerAccount) => void;
  onDelete: (a: LedgerAccount) => void;
};

/** An account's Edit, Deactivate (or Activate) and Delete. */
const AccountActions = ({ a, onEdit, onToggle, onDelete }: ActionsProps) => {
  const { t } = useT();
  return (
    <>
      <RowAction
        label={t('books.editCode', { code: a.code })}
        icon={<Edit fontSize="small" />}
        color="primary"
        onClick={() => onEdit(a)}
      />
      <RowAction
        label={
          a.is_active
            ? t('books.deactivateCode', { code: a.code })
            : t('books.activateCode', { code: a.code })
        }
        icon={a.is_active ? <ToggleOn fontSize="small" /> : <ToggleOff fontSize="small" />}
        onClick={() => onToggle(a)}
      />
      <RowAction
        label={t('books.deleteCode', { code: a.code })}
        icon={<DeleteOutline fontSize="small" />}
        color="error"
        onClick={() => onDelete(a)}
      />
    </>
  );
};

const ActiveChip = ({ active }: { active: boolean }) => {
  const { t } = useT();
  return (
    <Chip
      size="small"
      label={active ? t('books.active') : t('books.inactive')}
      color={active ? 'success' : 'default'}
      variant="outlined"
    />
  );
};

/**
 * 'Chart of Accounts' (Finance, any staff; changed by admins and company admins): the company's
 * accounts by code with their type, what a default one is for, whether it is active and its balance.
 */
export const ChartOfAccountsPage = () => {
  const { user } = useSession();
  const admin = isCompanyAdmin(user);
  const phone = usePhone();
  const company = useCompanyMoney();
  const { t, td, language } = useT();
  const label = useAccountLabel();
  const money = (v: string) => formatMoney(v, company.currency, company.decimals, language);
  const client = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const accounts = useQuery(accountsQuery());
  const loadError = accounts.isError ? errorMessage(accounts.error, t('books.accountsLoadFailed')) : null;
  useErrorSnackbar(loadError);
  const [search, setSearch] = useState('');
  const [type, setType] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const [toDelete, setToDelete] = useState<LedgerAccount | null>(null);
  const [refused, setRefused] = useState<{ account: LedgerAccount; message: string } | null>(null);

  const rows = useMemo(() => {
    const words = search.trim().toLowerCase();
    return (accounts.data ?? []).filter(
      (a) =>
        (!type || a.type === type) &&
        (!words ||
          `${a.code} ${a.name} ${label(a)} ${roleText(a.role, td) ?? ''}`.toLowerCase().includes(words)),
    );
  }, [accounts.data, search, type, td, label]);

  const toggle = useMutation({
    mutationFn: (a: LedgerAccount) =>
      updateAccount(a.id, { code: a.code, name: a.name, type: a.type, is_active: !a.is_active }),
    onSuccess: async (a) => {
      setRefused(null);
      showSnackbar({
        message: a.is_active
          ? t('books.activated', { code: a.code, name: label(a) })
          : t('books.deactivated', { code: a.code, name: label(a) }),
        severity: 'success',
        autoHideDuration: 3000,
      });
      await client.invalidateQueries({ queryKey: booksKeys.all });
    },
    onError: (e) => showSnackbar({ message: errorMessage(e, t('books.toggleFailed')), severity: 'error' }),
  });
  const remove = useMutation({
    mutationFn: (a: LedgerAccount) => deleteAccount(a.id),
    onSuccess: async () => {
      showSnackbar({ message: t('books.deleted'), severity: 'success', autoHideDuration: 3000 });
      await client.invalidateQueries({ queryKey: booksKeys.all });
    },
    onError: (e, a) => {
      if (isApiError(e) && e.code === 'in_use') setRefused({ account: a, message: e.message });
      else showSnackbar({ message: errorMessage(e, t('books.deleteFailed')), severity: 'error' });
    },
    onSettled: () => setToDelete(null),
  });

  const actions = {
    onEdit: (a: LedgerAccount) => setEditing({ account: a }),
    onToggle: (a: LedgerAccount) => toggle.mutate(a),
    onDelete: (a: LedgerAccount) => setToDelete(a),
  };
  const message = accounts.isPending ? t('books.fetching') : (loadError ?? t('books.noAccountsMatch'));

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          {t('books.chartTitle')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('books.chartIntro')}
          {admin ? '' : ` ${t('books.chartAdminsOnly')}`}
        </Typography>
      </Box>
      {refused && (
        <Alert
          severity="warning"
          role="alert"
          onClose={() => setRefused(null)}
          action={
            admin && refused.account.is_active ? (
              <Button color="inherit" size="small" onClick={() => toggle.mutate(refused.account)}>
                {t('books.deactivate')}
              </Button>
            ) : undefined
          }
        >
          {t('books.cannotDelete', { code: refused.account.code, name: label(refused.account) })}{' '}
          {refused.message}
        </Alert>
      )}
      <ListToolbar label={t('books.searchAccounts')} value={search} onChange={setSearch}>
        <TextField
          select
          size="small"
          label={t('books.type')}
          value={type}
          onChange={(e) => setType(e.target.value)}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 150 }}
        >
          <MenuItem value="">{t('books.all')}</MenuItem>
          {accountTypes.map((k) => (
            <MenuItem key={k} value={k}>
              {accountTypeText(k, td)}
            </MenuItem>
          ))}
        </TextField>
        {admin && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ account: null })}>
            {t('books.addAccount')}
          </Button>
        )}
      </ListToolbar>
      {phone ? (
        <Stack
          spacing={1}
          component="ul"
          aria-label={t('books.chartTitle')}
          sx={{ listStyle: 'none', p: 0, m: 0 }}
        >
          {rows.length === 0 && (
            <Typography component="li" sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
              {message}
            </Typography>
          )}
          {rows.map((a) => (
            <Paper key={a.id} component="li" variant="outlined" sx={{ p: 1.5 }}>
              <Stack
                direction="row"
                spacing={1}
                sx={{ alignItems: 'baseline', color: a.is_active ? undefined : 'text.secondary' }}
              >
                <Typography sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>{a.code}</Typography>
                <Typography sx={{ flexGrow: 1, minWidth: 0 }}>{label(a)}</Typography>
                <Typography sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>{money(a.balance)}</Typography>
              </Stack>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
                <Typography variant="body2" sx={{ color: 'text.secondary', flexGrow: 1 }}>
                  {accountTypeText(a.type, td)}
                  {a.role ? ` · ${roleText(a.role, td) ?? ''}` : ''}
                </Typography>
                <ActiveChip active={a.is_active} />
              </Stack>
              {admin && (
                <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 0.5 }}>
                  <AccountActions a={a} {...actions} />
                </Box>
              )}
            </Paper>
          ))}
        </Stack>
      ) : (
        <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
          <Box sx={{ height: 4 }}>{accounts.isFetching && <LinearProgress aria-hidden="true" />}</Box>
          <TableContainer>
            <Table size="small" aria-label={t('books.chartTitle')}>
              <TableHead>
                <TableRow>
                  <HeadCell>{t('books.code')}</HeadCell>
                  <HeadCell>{t('books.name')}</HeadCell>
                  <HeadCell>{t('books.type')}</HeadCell>
                  <HeadCell>{t('books.defaultFor')}</HeadCell>
                  <HeadCell>{t('books.active')}</HeadCell>
                  <HeadCell align="right">{t('books.balance')}</HeadCell>
                  {admin && (
                    <HeadCell align="right" sx={stickyActions}>
                      {t('books.actions')}
                    </HeadCell>
                  )}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={7} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                      <span role={accounts.isPending ? 'status' : undefined}>{message}</span>
                    </TableCell>
                  </TableRow>
                ) : (
                  rows.map((a) => (
                    <TableRow
                      key={a.id}
                      hover
                      sx={a.is_active ? undefined : { '& > td': { color: 'text.secondary' } }}
                    >
                      <TableCell sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                        {a.code}
                      </TableCell>
                      <TableCell sx={{ minWidth: 160 }}>{label(a)}</TableCell>
                      <TableCell>{accountTypeText(a.type, td)}</TableCell>
                      <TableCell sx={{ minWidth: 120, color: 'text.secondary' }}>
                        {roleText(a.role, td) ?? '—'}
                      </TableCell>
                      <TableCell>
                        <ActiveChip active={a.is_active} />
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {money(a.balance)}
                      </TableCell>
                      {admin && (
                        <TableCell align="right" sx={stickyActions}>
                          <AccountActions a={a} {...actions} />
                        </TableCell>
                      )}
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </TableContainer>
        </Paper>
      )}
      {editing && <AccountFormDialog account={editing.account} onClose={() => setEditing(null)} />}
      <ConfirmDeleteDialog
        open={toDelete !== null}
        text={toDelete ? t('books.deleteConfirm', { code: toDelete.code, name: label(toDelete) }) : ''}
        busy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
      />
    </Stack>
  );
};
