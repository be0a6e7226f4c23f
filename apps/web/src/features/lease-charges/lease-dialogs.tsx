import { useState } from 'react';
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
import { useT, useValidationText, type TranslateDerived } from '../../lib/i18n.ts';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { resourceKeys, useCompanyMoney } from '../../lib/resources.ts';
import { addCharge, addRateChange, settleDeposit, waiveCharge } from './lease-api.ts';

type Fields = Record<string, string>;

/** A payment method's label in the page's language (the payments' option: the `entity` group's). */
export const methodText = (method: string, td: TranslateDerived) =>
  td(
    `entity.payments.option.payment_method.${method}`,
    (paymentMethod.labels as Record<string, string>)[method] ?? method,
  );

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
  const { t } = useT();
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
      showSnackbar({ message: errorMessage(e, t('lease.saveFailed')), severity: 'error' });
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
  const validationText = useValidationText();
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
      helperText={validationText(error)}
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
}) => {
  const validationText = useValidationText();
  return (
    <TextField
      label={label}
      type="date"
      required
      fullWidth
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={!!error}
      helperText={validationText(error)}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
};

/** Add charge: a utility bill, damage or anything else, owed like rent. */
export const AddChargeDialog = ({ occupancyId, ...dialog }: DialogProps & { occupancyId: number }) => {
  const { t, td } = useT();
  const validationText = useValidationText();
  const [values, setValues] = useState({ date: today(), category: 'utility', description: '', amount: '' });
  const [fields, setFields] = useState<Fields>({});
  const save = useSave(dialog.onClose, t('lease.chargeAdded'), setFields);
  const set = (k: keyof typeof values) => (v: string) => setValues((old) => ({ ...old, [k]: v }));
  return (
    <FormDialog
      {...dialog}
      busy={save.isPending}
      title={t('lease.addCharge')}
      maxWidth="xs"
      submitLabel={t('lease.addCharge')}
      onSubmit={(e) => {
        e.preventDefault();
        const r = validate(chargeBody, values);
        if ('fields' in r) return setFields(r.fields);
        setFields({});
        save.mutate(() => addCharge(occupancyId, r.data));
      }}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <DateField label={t('lease.date')} value={values.date} onChange={set('date')} error={fields.date} />
        <TextField
          select
          label={t('lease.category')}
          required
          fullWidth
          value={values.category}
          onChange={(e) => set('category')(e.target.value)}
          slotProps={{ select: { native: true } }}
          error={!!fields.category}
          helperText={validationText(fields.category)}
        >
          {chargeCategory.values.map((v) => (
            <option key={v} value={v}>
              {td(`lease.chargeCategory.${v}`, chargeCategory.labels[v])}
            </option>
          ))}
        </TextField>
        <TextField
          label={t('lease.description')}
          required
          fullWidth
          value={values.description}
          onChange={(e) => set('description')(e.target.value)}
          error={!!fields.description}
          helperText={validationText(fields.description)}
        />
        <MoneyField
          label={t('lease.amount')}
          value={values.amount}
          onChange={set('amount')}
          error={fields.amount}
        />
      </Stack>
    </FormDialog>
  );
};

/** Waive: a waiver of the charge's whole amount, with its reason; the charge itself stays. */
export const WaiveDialog = ({ charge, ...dialog }: DialogProps & { charge: Charge }) => {
  const money = useCompanyMoney();
  const { t, language } = useT();
  const validationText = useValidationText();
  const [reason, setReason] = useState('');
  const [fields, setFields] = useState<Fields>({});
  const save = useSave(dialog.onClose, t('lease.chargeWaived'), setFields);
  return (
    <FormDialog
      {...dialog}
      busy={save.isPending}
      title={t('lease.waiveCharge')}
      maxWidth="xs"
      submitLabel={t('lease.waive')}
      onSubmit={(e) => {
        e.preventDefault();
        const r = validate(waiveBody, { reason });
        if ('fields' in r) return setFields(r.fields);
        save.mutate(() => waiveCharge(charge.id, r.data.reason));
      }}
    >
      <Stack spacing={2}>
        <DialogContentText>
          {t('lease.waiveExplain', {
            description: charge.description,
            amount: formatMoney(charge.amount, money.currency, money.decimals, language),
          })}
        </DialogContentText>
        <TextField
          label={t('lease.reason')}
          required
          fullWidth
          autoFocus
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={!!fields.reason}
          helperText={validationText(fields.reason)}
        />
      </Stack>
    </FormDialog>
  );
};

/** Add rate change: periods starting on or after the day are charged the new rate. */
export const RateChangeDialog = ({ occupancyId, ...dialog }: DialogProps & { occupancyId: number }) => {
  const { t } = useT();
  const [values, setValues] = useState({ effective_date: today(), rate: '' });
  const [fields, setFields] = useState<Fields>({});
  const save = useSave(dialog.onClose, t('lease.rateChangeAdded'), setFields);
  return (
    <FormDialog
      {...dialog}
      busy={save.isPending}
      title={t('lease.addRateChange')}
      maxWidth="xs"
      submitLabel={t('lease.addRateChange')}
      onSubmit={(e) => {
        e.preventDefault();
        const r = validate(rateChangeBody, values);
        if ('fields' in r) return setFields(r.fields);
        save.mutate(() => addRateChange(occupancyId, r.data));
      }}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <DialogContentText>{t('lease.rateExplain')}</DialogContentText>
        <DateField
          label={t('lease.effectiveDate')}
          value={values.effective_date}
          onChange={(v) => setValues((o) => ({ ...o, effective_date: v }))}
          error={fields.effective_date}
        />
        <MoneyField
          label={t('lease.newRate')}
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
  const { t, td, language } = useT();
  const validationText = useValidationText();
  const [date, setDate] = useState(today());
  const [deductions, setDeductions] = useState<Deduction[]>([]);
  const [applied, setApplied] = useState(true);
  const [method, setMethod] = useState('cash');
  const [fields, setFields] = useState<Fields>({});
  const save = useSave(dialog.onClose, t('lease.depositSettled'), setFields);
  const line = (i: number, patch: Partial<Deduction>) =>
    setDeductions((old) => old.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  return (
    <FormDialog
      {...dialog}
      busy={save.isPending}
      title={t('lease.settleDeposit')}
      maxWidth="sm"
      submitLabel={t('lease.settleDeposit')}
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
          {t('lease.depositExplain', {
            amount: formatMoney(deposit, money.currency, money.decimals, language),
          })}
        </DialogContentText>
        <DateField label={t('lease.date')} value={date} onChange={setDate} error={fields.date} />
        {deductions.map((d, i) => (
          <Stack
            key={i}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            role="group"
            aria-label={t('lease.deductionN', { n: i + 1 })}
          >
            <TextField
              label={t('lease.deduction')}
              required
              fullWidth
              value={d.description}
              onChange={(e) => line(i, { description: e.target.value })}
              error={!!fields[`deductions.${i}.description`]}
              helperText={validationText(fields[`deductions.${i}.description`])}
            />
            <MoneyField
              label={t('lease.amount')}
              value={d.amount}
              onChange={(v) => line(i, { amount: v })}
              error={fields[`deductions.${i}.amount`]}
            />
            <IconButton
              aria-label={t('lease.removeDeduction', { n: i + 1 })}
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
          {t('lease.addDeduction')}
        </Button>
        <FormControlLabel
          control={<Checkbox checked={applied} onChange={(e) => setApplied(e.target.checked)} />}
          label={t('lease.payFromDeposit')}
        />
        <TextField
          select
          label={t('lease.refundMethod')}
          fullWidth
          value={method}
          onChange={(e) => setMethod(e.target.value)}
          slotProps={{ select: { native: true } }}
          error={!!fields.refund_method}
          helperText={validationText(fields.refund_method)}
        >
          {paymentMethod.values.map((v) => (
            <option key={v} value={v}>
              {methodText(v, td)}
            </option>
          ))}
        </TextField>
        {Object.keys(fields).length > 0 && !fields.date && !fields.refund_method && (
          <Alert severity="error">{t('lease.correctErrors')}</Alert>
        )}
      </Stack>
    </FormDialog>
  );
};
