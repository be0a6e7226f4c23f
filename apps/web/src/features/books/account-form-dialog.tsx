import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogButtons } from '../../components/ui/dialog-buttons.tsx';
import { FormTextField } from '../../components/ui/form-text-field.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { showFieldErrors } from '../../lib/form-errors.ts';
import { booksKeys, createAccount, updateAccount, type LedgerAccount } from './books-api.ts';
import { accountFormSchema, accountTypes, type AccountForm } from './books-rules.ts';
import { accountTypeText } from './books-texts.ts';
import { useT, useValidationText } from '../../lib/i18n.ts';
import { usePhone } from '../../lib/use-phone.ts';

const FIELDS = new Set(['code', 'name', 'type', 'is_active']);

/** Add or edit an account of the chart: code, name, type and whether it is active. */
export const AccountFormDialog = ({
  account,
  onClose,
}: {
  /** null: a new account. */
  account: LedgerAccount | null;
  onClose: () => void;
}) => {
  const formId = useId();
  const phone = usePhone();
  const { t, td } = useT();
  const validationText = useValidationText();
  const client = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const [problem, setProblem] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<AccountForm>({
    resolver: zodResolver(accountFormSchema),
    defaultValues: account
      ? { code: account.code, name: account.name, type: account.type, is_active: account.is_active }
      : { code: '', name: '', type: 'expense', is_active: true },
  });
  const save = useMutation({
    mutationFn: (v: AccountForm) => (account ? updateAccount(account.id, v) : createAccount(v)),
    onSuccess: async (saved) => {
      showSnackbar({
        message: account
          ? t('books.accountSaved', { code: saved.code })
          : t('books.accountAdded', { code: saved.code }),
        severity: 'success',
        autoHideDuration: 3000,
      });
      await client.invalidateQueries({ queryKey: booksKeys.all });
      onClose();
    },
    onError: (e) => {
      showFieldErrors(e, FIELDS, setError);
      // the type of an account with entries stays: the server says so without naming a field
      if (isApiError(e) && e.code === 'in_use') setError('type', { message: e.message });
      else if (!isApiError(e) || !e.fields) setProblem(errorMessage(e, t('books.saveFailed')));
    },
  });
  const title = account ? t('books.editAccount', { code: account.code }) : t('books.addAccount');
  return (
    <Dialog open fullScreen={phone} fullWidth maxWidth="sm" aria-labelledby={`${formId}-title`}>
      <DialogTitle id={`${formId}-title`}>{title}</DialogTitle>
      <DialogContent dividers>
        {problem && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {problem}
          </Alert>
        )}
        {account?.role && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('books.defaultAccountInfo')}
          </Alert>
        )}
        <Box
          component="form"
          id={formId}
          noValidate
          aria-label={title}
          onSubmit={(e) => {
            setProblem(null);
            void handleSubmit((v) => save.mutate(v))(e);
          }}
          sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 2fr' }, gap: 2, pt: 1 }}
        >
          <FormTextField control={control} name="code" label={t('books.code')} required autoFocus />
          <FormTextField control={control} name="name" label={t('books.name')} required />
          <Controller
            control={control}
            name="type"
            render={({ field: { ref, ...field }, fieldState }) => (
              <TextField
                select
                {...field}
                inputRef={ref}
                label={t('books.type')}
                required
                fullWidth
                error={!!fieldState.error}
                helperText={validationText(fieldState.error?.message)}
              >
                {accountTypes.map((k) => (
                  <MenuItem key={k} value={k}>
                    {accountTypeText(k, td)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            control={control}
            name="is_active"
            render={({ field }) => (
              <FormControlLabel
                control={
                  <Switch
                    checked={field.value}
                    onChange={(e) => field.onChange(e.target.checked)}
                    inputRef={field.ref}
                  />
                }
                label={t('books.active')}
              />
            )}
          />
        </Box>
      </DialogContent>
      <DialogButtons busy={save.isPending} onCancel={onClose} label={t('books.save')} form={formId} />
    </Dialog>
  );
};
