import { useId, useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import Add from '@mui/icons-material/Add';
import Close from '@mui/icons-material/Close';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatMoney, localDayIso } from '@kodi/domain';
import { useT, useValidationText } from '../../lib/i18n.ts';
import { DialogButtons } from '../../components/ui/dialog-buttons.tsx';
import { FormTextField } from '../../components/ui/form-text-field.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { accountsQuery, booksKeys, postEntry, type LedgerAccount } from './books-api.ts';
import {
  decimalOf,
  draftProblem,
  entryTotals,
  manualEntrySchema,
  type ManualEntryForm,
} from './books-rules.ts';
import { draftProblemText } from './journal-texts.ts';
import { usePhone } from '../../lib/use-phone.ts';
import { useAccountLabel } from '../../lib/account-label.ts';

const blankLine = { account_id: null, debit: '', credit: '' };

/**
 * 'New journal entry' (admins and company admins): a date, a memo and lines (an account, a debit or a
 * credit); the totals run as the user types and Post waits until debits equal credits.
 */
export const NewEntryDialog = ({
  onClose,
  onPosted,
}: {
  onClose: () => void;
  onPosted: (id: number) => void;
}) => {
  const formId = useId();
  const phone = usePhone();
  const company = useCompanyMoney();
  const { t, td, language } = useT();
  const label = useAccountLabel();
  const accountLabel = (a: LedgerAccount) => `${a.code} ${label(a)}`;
  const validationText = useValidationText();
  const money = (c: bigint) => formatMoney(decimalOf(c), company.currency, company.decimals, language);
  const client = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const accounts = useQuery(accountsQuery());
  const active = useMemo(() => (accounts.data ?? []).filter((a) => a.is_active), [accounts.data]);
  const [problem, setProblem] = useState<string | null>(null);
  const [lineErrors, setLineErrors] = useState<Record<number, string>>({});
  const { control, handleSubmit, setError, formState } = useForm<ManualEntryForm>({
    resolver: zodResolver(manualEntrySchema),
    defaultValues: { date: localDayIso(), memo: '', lines: [blankLine, blankLine] },
  });
  const lines = useFieldArray({ control, name: 'lines' });
  const typed = useWatch({ control, name: 'lines' });
  const totals = entryTotals(typed);
  const draft = draftProblem(typed);
  const difference = totals.debit - totals.credit;

  const post = useMutation({
    mutationFn: (v: ManualEntryForm) =>
      postEntry({
        date: v.date,
        memo: v.memo.trim(),
        lines: v.lines
          .filter((l) => l.account_id !== null || l.debit.trim() || l.credit.trim())
          .map((l) => ({
            account_id: l.account_id ?? 0,
            debit: l.debit.replace(/,/g, '').trim() || '0',
            credit: l.credit.replace(/,/g, '').trim() || '0',
          })),
      }),
    onSuccess: async (entry) => {
      showSnackbar({
        message: t('books.entryPosted', { id: entry.id }),
        severity: 'success',
        autoHideDuration: 4000,
      });
      await client.invalidateQueries({ queryKey: booksKeys.all });
      onPosted(entry.id);
    },
    onError: (e) => {
      const byLine: Record<number, string> = {};
      const rest: string[] = [];
      if (isApiError(e) && e.fields) {
        for (const [name, message] of Object.entries(e.fields)) {
          const line = /^lines\.(\d+)/.exec(name);
          if (line) byLine[Number(line[1])] = message;
          else if (name === 'date' || name === 'memo') setError(name, { message });
          else rest.push(message);
        }
      }
      // a day on or before the close: the date is what is wrong
      if (isApiError(e) && e.code === 'period_closed') setError('date', { message: e.message });
      else if (!isApiError(e) || !e.fields) rest.push(errorMessage(e, t('books.postFailed')));
      setLineErrors(byLine);
      setProblem(rest.length > 0 ? rest.join(' ') : null);
    },
  });

  const submit = handleSubmit((v) => {
    setProblem(null);
    setLineErrors({});
    post.mutate(v);
  });
  const linesErrorEnglish = formState.errors.lines?.message ?? formState.errors.lines?.root?.message;
  const linesError = linesErrorEnglish && draftProblemText(linesErrorEnglish, td);
  const draftText = draft && draftProblemText(draft, td);

  return (
    <Dialog open fullScreen={phone} fullWidth maxWidth="md" aria-labelledby={`${formId}-title`}>
      <DialogTitle id={`${formId}-title`}>{t('books.newEntry')}</DialogTitle>
      <DialogContent dividers>
        {problem && (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {problem}
          </Alert>
        )}
        <Box
          component="form"
          id={formId}
          noValidate
          aria-label={t('books.newEntry')}
          onSubmit={(e) => void submit(e)}
        >
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '200px 1fr' }, gap: 2, pt: 1 }}>
            <Controller
              control={control}
              name="date"
              render={({ field: { ref, ...field }, fieldState }) => (
                <TextField
                  {...field}
                  inputRef={ref}
                  type="date"
                  label={t('books.date')}
                  required
                  fullWidth
                  error={!!fieldState.error}
                  helperText={validationText(fieldState.error?.message)}
                  slotProps={{ inputLabel: { shrink: true } }}
                />
              )}
            />
            <FormTextField control={control} name="memo" label={t('books.memo')} required autoFocus />
          </Box>
          <Typography variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
            {t('books.lines')}
          </Typography>
          {lines.fields.map((f, i) => (
            <Paper
              key={f.id}
              variant="outlined"
              role="group"
              aria-label={t('books.line', { line: i + 1 })}
              sx={{
                p: 1.5,
                mb: 1.5,
                display: 'grid',
                gap: 1.5,
                gridTemplateColumns: { xs: '1fr 1fr auto', sm: 'minmax(0, 1fr) 150px 150px auto' },
                alignItems: 'start',
                borderColor: lineErrors[i] ? 'error.main' : undefined,
              }}
            >
              <Box sx={{ gridColumn: { xs: '1 / 3', sm: '1' }, gridRow: '1' }}>
                <Controller
                  control={control}
                  name={`lines.${i}.account_id`}
                  render={({ field }) => (
                    <Autocomplete
                      options={active}
                      loading={accounts.isPending}
                      value={active.find((a) => a.id === field.value) ?? null}
                      onChange={(_e, a) => field.onChange(a?.id ?? null)}
                      getOptionLabel={accountLabel}
                      isOptionEqualToValue={(a, b) => a.id === b.id}
                      renderInput={(params) => (
                        <TextField
                          {...params}
                          inputRef={field.ref}
                          label={t('books.account')}
                          size="small"
                          error={!!lineErrors[i]}
                          helperText={lineErrors[i]}
                        />
                      )}
                    />
                  )}
                />
              </Box>
              <Box sx={{ gridColumn: { xs: '3', sm: '4' }, gridRow: '1' }}>
                <IconButton
                  aria-label={t('books.removeLine', { line: i + 1 })}
                  disabled={lines.fields.length <= 2}
                  onClick={() => lines.remove(i)}
                >
                  <Close fontSize="small" />
                </IconButton>
              </Box>
              {(['debit', 'credit'] as const).map((side) => (
                <Box
                  key={side}
                  sx={{
                    gridColumn: { xs: side === 'debit' ? '1' : '2 / 4', sm: side === 'debit' ? '2' : '3' },
                    gridRow: { xs: '2', sm: '1' },
                  }}
                >
                  <Controller
                    control={control}
                    name={`lines.${i}.${side}`}
                    render={({ field: { ref, ...field } }) => (
                      <TextField
                        {...field}
                        inputRef={ref}
                        label={side === 'debit' ? t('books.debit') : t('books.credit')}
                        size="small"
                        fullWidth
                        slotProps={{
                          htmlInput: {
                            inputMode: 'decimal',
                            'aria-label':
                              side === 'debit'
                                ? t('books.lineDebit', { line: i + 1 })
                                : t('books.lineCredit', { line: i + 1 }),
                          },
                        }}
                      />
                    )}
                  />
                </Box>
              ))}
            </Paper>
          ))}
          <Button startIcon={<Add />} onClick={() => lines.append(blankLine)}>
            {t('books.addLine')}
          </Button>
          <Box
            role="status"
            aria-label={t('books.totals')}
            sx={{
              mt: 2,
              p: 1.5,
              borderRadius: 1,
              bgcolor: (t) =>
                difference === 0n && totals.debit > 0n
                  ? alpha(t.palette.success.main, 0.1)
                  : t.palette.action.hover,
              display: 'flex',
              flexWrap: 'wrap',
              gap: { xs: 1, sm: 3 },
              fontVariantNumeric: 'tabular-nums',
            }}
          >
            <Typography variant="body2">
              {t('books.debitsLabel')} <strong>{money(totals.debit)}</strong>
            </Typography>
            <Typography variant="body2">
              {t('books.creditsLabel')} <strong>{money(totals.credit)}</strong>
            </Typography>
            <Typography variant="body2" color={difference === 0n ? 'success.main' : 'error'}>
              {difference === 0n
                ? totals.debit > 0n
                  ? t('books.balanced')
                  : t('books.nothingYet')
                : t('books.outOfBalance', { amount: money(difference < 0n ? -difference : difference) })}
            </Typography>
          </Box>
          {(linesError || (formState.isSubmitted && draft)) && (
            <Typography role="alert" variant="body2" color="error" sx={{ mt: 1 }}>
              {linesError ?? draftText}
            </Typography>
          )}
          {!formState.isSubmitted && draft && totals.debit + totals.credit > 0n && (
            <Typography variant="caption" sx={{ display: 'block', mt: 1, color: 'text.secondary' }}>
              {draftText}
            </Typography>
          )}
        </Box>
      </DialogContent>
      <DialogButtons
        busy={post.isPending}
        onCancel={onClose}
        label={t('books.postEntry')}
        form={formId}
        disabled={draft !== null}
      />
    </Dialog>
  );
};
