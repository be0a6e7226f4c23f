import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import DialogContentText from '@mui/material/DialogContentText';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  chargeBody,
  chargeCategory,
  depositSettlementBody,
  formatMoney,
  localDayIso,
  paymentMethod,
  rateChangeBody,
  waiveBody,
  type Charge,
} from '@kodi/domain';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { resourceKeys, useCompanyMoney } from '../../lib/resources.ts';
import { addCharge, addRateChange, settleDeposit, waiveCharge } from './lease-api.ts';

type Fields = Record<string, string>;

/** The values through the same rules the server applies: the values, or a message per field. */
const validate = <S extends z.ZodType>(
  schema: S,
  values: unknown,
): { data: z.output<S> } | { fields: Fields } => {
  const r = schema.safeParse(values);
  if (r.success) return { data: r.data };
  const fields: Fields = {};
  for (const issue of r.error.issues) fields[issue.path.join('.')] ??= issue.message;
  return { fields };
};

type DialogProps = { open: boolean; onClose: () => void };

/** A dialog's save: the call, then the lease's queries refreshed, a snackbar, and the dialog closed. */
const useSave = (onClose: () => void, success: string, setFields: (f: Fields) => void) => {
  const queryClient = useQueryClient();
  const { showSnackbar } = useSnackbar();
  return useMutation({
    mutationFn: (call: () => Promise<unknown>) => call(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: resourceKeys.entity('occupancy') });
      await queryClient.invalidateQueries({ queryKey: resourceKeys.entity('arrears') });
      showSnackbar({ message: success, severity: 'success' });
      onClose();
    },
    onError: (e) => {
      if (isApiError(e) && e.fields) setFields(e.fields);
      showSnackbar({ message: errorMessage(e, 'Could not save.'), severity: 'error' });
    },
  });
};

const today = () => localDayIso();

const MoneyField = ({
  label,
  value,
  onChange,
  error,
  autoFocus,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
  autoFocus?: boolean;
}) => {
  const money = useCompanyMoney();
  return (
    <TextField
      label={label}
      type="number"
      required
      fullWidth
      autoFocus={autoFocus}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={!!error}
      helperText={error}
      slotProps={{
        htmlInput: { step: 'any', inputMode: 'decimal', min: 0 },
        input: { startAdornment: <InputAdornment position="start">{money.currency}</InputAdornment> },
      }}
    />
  );
};

const DateField = ({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
}) => (
  <TextField
    label={label}
    type="date"
    required
    fullWidth
    value={value}
    onChange={(e) => onChange(e.target.value)}
    error={!!error}
    helperText={error}
    slotProps={{ inputLabel: { shrink: true } }}
  />
);

/** Add charge: a utility bill, damage or anything else, owed like rent. */
export const AddChargeDialog = ({ occupancyId, ...dialog }: DialogProps & { occupancyId: number }) => {
  const [values, setValues] = useState({ date: today(), category: 'utility', description: '', amount: '' });
  const [fields, setFields] = useState<Fields>({});
  const save = useSave(dialog.onClose, 'Charge added.', setFields);
  const set = (k: keyof typeof values) => (v: string) => setValues((old) => ({ ...old, [k]: v }));
  return (
    <FormDialog
      {...dialog}
      busy={save.isPending}
      title="Add charge"
      maxWidth="xs"
      submitLabel="Add charge"
      onSubmit={(e) => {
        e.preventDefault();
        const r = validate(chargeBody, values);
        if ('fields' in r) return setFields(r.fields);
        setFields({});
        save.mutate(() => addCharge(occupancyId, r.data));
      }}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <DateField label="Date" value={values.date} onChange={set('date')} error={fields.date} />
        <TextField
          select
          label="Category"
          required
          fullWidth
          value={values.category}
          onChange={(e) => set('category')(e.target.value)}
          slotProps={{ select: { native: true } }}
          error={!!fields.category}
          helperText={fields.category}
        >
          {chargeCategory.values.map((v) => (
            <option key={v} value={v}>
              {chargeCategory.labels[v]}
            </option>
          ))}
        </TextField>
        <TextField
          label="Description"
          required
          fullWidth
          value={values.description}
          onChange={(e) => set('description')(e.target.value)}
          error={!!fields.description}
          helperText={fields.description}
        />
        <MoneyField label="Amount" value={values.amount} onChange={set('amount')} error={fields.amount} />
      </Stack>
    </FormDialog>
  );
};

/** Waive: a waiver of the charge's whole amount, with its reason; the charge itself stays. */
export const WaiveDialog = ({ charge, ...dialog }: DialogProps & { charge: Charge }) => {
  const money = useCompanyMoney();
  const [reason, setReason] = useState('');
  const [fields, setFields] = useState<Fields>({});
  const save = useSave(dialog.onClose, 'Charge waived.', setFields);
  return (
    <FormDialog
      {...dialog}
      busy={save.isPending}
      title="Waive charge"
      maxWidth="xs"
      submitLabel="Waive"
      onSubmit={(e) => {
        e.preventDefault();
        const r = validate(waiveBody, { reason });
        if ('fields' in r) return setFields(r.fields);
        save.mutate(() => waiveCharge(charge.id, r.data.reason));
      }}
    >
      <Stack spacing={2}>
        <DialogContentText>
          {charge.description}: {formatMoney(charge.amount, money.currency, money.decimals)} will no longer be
          owed. The charge stays in the ledger with its waiver.
        </DialogContentText>
        <TextField
          label="Reason"
          required
          fullWidth
          autoFocus
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={!!fields.reason}
          helperText={fields.reason}
        />
      </Stack>
    </FormDialog>
  );
};

/** Add rate change: periods starting on or after the day are charged the new rate. */
export const RateChangeDialog = ({ occupancyId, ...dialog }: DialogProps & { occupancyId: number }) => {
  const [values, setValues] = useState({ effective_date: today(), rate: '' });
  const [fields, setFields] = useState<Fields>({});
  const save = useSave(dialog.onClose, 'Rate change added.', setFields);
  return (
    <FormDialog
      {...dialog}
      busy={save.isPending}
      title="Add rate change"
      maxWidth="xs"
      submitLabel="Add rate change"
      onSubmit={(e) => {
        e.preventDefault();
        const r = validate(rateChangeBody, values);
        if ('fields' in r) return setFields(r.fields);
        save.mutate(() => addRateChange(occupancyId, r.data));
      }}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <DialogContentText>
          Every period that starts on or after this day is charged the new rate.
        </DialogContentText>
        <DateField
          label="Effective date"
          value={values.effective_date}
          onChange={(v) => setValues((o) => ({ ...o, effective_date: v }))}
          error={fields.effective_date}
        />
        <MoneyField
          label="New rate"
          value={values.rate}
          onChange={(v) => setValues((o) => ({ ...o, rate: v }))}
          error={fields.rate}
        />
      </Stack>
    </FormDialog>
  );
};

type Deduction = { description: string; amount: string };

/** Settle deposit: deductions, whether the deposit pays the balance, how the rest is refunded. */
export const DepositDialog = ({
  occupancyId,
  deposit,
  ...dialog
}: DialogProps & { occupancyId: number; deposit: number }) => {
  const money = useCompanyMoney();
  const [date, setDate] = useState(today());
  const [deductions, setDeductions] = useState<Deduction[]>([]);
  const [applied, setApplied] = useState(true);
  const [method, setMethod] = useState('cash');
  const [fields, setFields] = useState<Fields>({});
  const save = useSave(dialog.onClose, 'Deposit settled.', setFields);
  const line = (i: number, patch: Partial<Deduction>) =>
    setDeductions((old) => old.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  const field = (name: string): ReactNode => fields[name];
  return (
    <FormDialog
      {...dialog}
      busy={save.isPending}
      title="Settle deposit"
      maxWidth="sm"
      submitLabel="Settle deposit"
      onSubmit={(e) => {
        e.preventDefault();
        const r = validate(depositSettlementBody, {
          date,
          deductions,
          applied_to_balance: applied,
          refund_method: method,
        });
        if ('fields' in r) return setFields(r.fields);
        save.mutate(() => settleDeposit(occupancyId, r.data));
      }}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <DialogContentText>
          The deposit of {formatMoney(deposit, money.currency, money.decimals)} pays the deductions (and the
          balance owed, when asked); the rest is refunded. A lease&apos;s deposit is settled once.
        </DialogContentText>
        <DateField label="Date" value={date} onChange={setDate} error={fields.date} />
        {deductions.map((d, i) => (
          <Stack
            key={i}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            role="group"
            aria-label={`Deduction ${i + 1}`}
          >
            <TextField
              label="Deduction"
              required
              fullWidth
              value={d.description}
              onChange={(e) => line(i, { description: e.target.value })}
              error={!!fields[`deductions.${i}.description`]}
              helperText={field(`deductions.${i}.description`)}
            />
            <MoneyField
              label="Amount"
              value={d.amount}
              onChange={(v) => line(i, { amount: v })}
              error={fields[`deductions.${i}.amount`]}
            />
            <IconButton
              aria-label={`Remove deduction ${i + 1}`}
              onClick={() => setDeductions((old) => old.filter((_, j) => j !== i))}
            >
              <DeleteOutline />
            </IconButton>
          </Stack>
        ))}
        <Button
          startIcon={<Add />}
          sx={{ alignSelf: 'flex-start' }}
          onClick={() => setDeductions((old) => [...old, { description: '', amount: '' }])}
        >
          Add deduction
        </Button>
        <FormControlLabel
          control={<Checkbox checked={applied} onChange={(e) => setApplied(e.target.checked)} />}
          label="Pay the balance owed from the deposit"
        />
        <TextField
          select
          label="Refund method"
          fullWidth
          value={method}
          onChange={(e) => setMethod(e.target.value)}
          slotProps={{ select: { native: true } }}
          error={!!fields.refund_method}
          helperText={fields.refund_method}
        >
          {paymentMethod.values.map((v) => (
            <option key={v} value={v}>
              {paymentMethod.labels[v]}
            </option>
          ))}
        </TextField>
        {Object.keys(fields).length > 0 && !fields.date && !fields.refund_method && (
          <Alert severity="error">Please correct the form errors.</Alert>
        )}
      </Stack>
    </FormDialog>
  );
};
