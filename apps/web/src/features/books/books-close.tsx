import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Lock from '@mui/icons-material/Lock';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDate, localDayIso } from '@kodi/domain';
import { useT } from '../../lib/i18n.ts';
import { DialogButtons } from '../../components/ui/dialog-buttons.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { booksKeys, closeBooks, closeQuery } from './books-api.ts';
import { dayBefore } from './books-rules.ts';
import { usePhone } from '../../lib/use-phone.ts';

/** The close of the books: the day they are closed through; admins close through a later day. */
export const BooksClose = ({ canClose }: { canClose: boolean }) => {
  const { t, language } = useT();
  const close = useQuery(closeQuery());
  const [asking, setAsking] = useState(false);
  const through = close.data?.through ?? null;
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexGrow: 1 }}>
          <Lock fontSize="small" color={through ? 'primary' : 'disabled'} />
          <Typography variant="body2" data-testid="books-closed-through">
            {close.isPending
              ? t('books.readingClose')
              : through
                ? t('books.closedThrough', { date: formatDate(through, language) })
                : t('books.notClosed')}
          </Typography>
        </Stack>
        {canClose && (
          <Button variant="outlined" onClick={() => setAsking(true)}>
            {t('books.closeBooks')}
          </Button>
        )}
      </Stack>
      {asking && <CloseDialog current={through} onClose={() => setAsking(false)} />}
    </Paper>
  );
};

const CloseDialog = ({ current, onClose }: { current: string | null; onClose: () => void }) => {
  const phone = usePhone();
  const { t, language } = useT();
  const client = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const [day, setDay] = useState(() => dayBefore(localDayIso()));
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => closeBooks(day),
    onSuccess: async (c) => {
      showSnackbar({
        message: t('books.closedThroughDone', { date: formatDate(c.through, language) }),
        severity: 'success',
        autoHideDuration: 4000,
      });
      await client.invalidateQueries({ queryKey: booksKeys.all });
      onClose();
    },
    onError: (e) => setError((isApiError(e) && e.fields?.through) || errorMessage(e, t('books.closeFailed'))),
  });
  const invalid = !day
    ? t('books.chooseDay')
    : current && day < current
      ? t('books.alreadyClosed', { date: formatDate(current, language) })
      : null;
  return (
    <Dialog
      open
      onClose={save.isPending ? undefined : onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="xs"
      aria-labelledby="close-books-title"
    >
      <DialogTitle id="close-books-title">{t('books.closeBooks')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('books.closeExplain')}</DialogContentText>
        {current && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('books.closedNow', { date: formatDate(current, language) })}
          </Alert>
        )}
        <TextField
          type="date"
          label={t('books.closeThrough')}
          value={day}
          onChange={(e) => {
            setDay(e.target.value);
            setError(null);
          }}
          fullWidth
          required
          error={!!(error ?? invalid)}
          helperText={
            error ?? invalid ?? (day ? t('books.closesDay', { date: formatDate(day, language) }) : '')
          }
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: localDayIso() } }}
        />
      </DialogContent>
      <DialogButtons
        busy={save.isPending}
        onCancel={onClose}
        label={day ? t('books.closeThroughDay', { date: formatDate(day, language) }) : t('books.close')}
        onConfirm={() => save.mutate()}
        disabled={invalid !== null}
      />
    </Dialog>
  );
};
