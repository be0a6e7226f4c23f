import { useEffect } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import type { FormControlProps, ResourceExtras } from '../../components/resource/types.ts';
import { accountsQuery } from './books-api.ts';
import { useT } from '../../lib/i18n.ts';
import { useAccountLabel } from '../../lib/account-label.ts';

export const PAID_FROM_LABEL = 'Paid From Account';

/**
 * An expense's paying account (issue 25): the company's active asset accounts by code and name, Cash
 * on hand chosen for a new expense. A stored account since deactivated stays offered while it is the
 * value.
 */
export const PaidFromAccountField = ({
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  creating,
}: FormControlProps) => {
  const { t } = useT();
  const label = useAccountLabel();
  const accounts = useQuery(accountsQuery());
  const id = value === null || value === undefined || value === '' ? null : Number(value);
  const offered = (accounts.data ?? []).filter((a) => a.type === 'asset' && (a.is_active || a.id === id));
  const cash = offered.find((a) => a.role === 'cash');
  useEffect(() => {
    if (creating && id === null && cash) onChange(cash.id);
  }, [creating, id, cash, onChange]);
  return (
    <TextField
      select
      fullWidth
      label={t('paidFrom.label')}
      value={id !== null && offered.some((a) => a.id === id) ? String(id) : ''}
      onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
      onBlur={onBlur}
      inputRef={inputRef}
      error={!!error}
      helperText={error ?? (accounts.isError ? t('paidFrom.readFailed') : t('paidFrom.help'))}
    >
      {offered.length === 0 && (
        <MenuItem value="" disabled>
          {accounts.isPending ? t('paidFrom.loading') : t('paidFrom.none')}
        </MenuItem>
      )}
      {offered.map((a) => (
        <MenuItem key={a.id} value={String(a.id)}>
          {a.code} {label(a)}
          {a.is_active ? '' : ` ${t('paidFrom.inactive')}`}
        </MenuItem>
      ))}
    </TextField>
  );
};

/** The account an expense was paid from, by code and name, in its details. */
export const PaidFromAccountName = ({ id }: { id: unknown }) => {
  const accounts = useQuery(accountsQuery());
  const label = useAccountLabel();
  if (id === null || id === undefined) return <>—</>;
  const a = accounts.data?.find((x) => x.id === Number(id));
  return <>{a ? `${a.code} ${label(a)}` : `#${String(id)}`}</>;
};

/** What the books give the expenses' page: the paying account's picker and its name in the details. */
export const expenseBooksExtras: ResourceExtras = {
  formControls: {
    paid_from_account_id: { label: PAID_FROM_LABEL, render: (props) => <PaidFromAccountField {...props} /> },
  },
  details: { paid_from_account_id: (row) => <PaidFromAccountName id={row.paid_from_account_id} /> },
};
