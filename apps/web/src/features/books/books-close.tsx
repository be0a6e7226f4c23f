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
import { DialogButtons } from '../../components/ui/dialog-buttons.tsx';
import { useSnackbar } from '../../components/snackbar-provider.tsx';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { booksKeys, closeBooks, closeQuery } from './books-api.ts';
import { dayBefore } from './books-rules.ts';
import { usePhone } from '../../lib/use-phone.ts';

/** The close of the books: the day they are closed through; admins close through a later day. */
export const BooksClose = ({ canClose }: { canClose: boolean }) => {
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
              ? 'Reading the close…'
              : through
                ? `Books closed through ${formatDate(through)}`
                : 'The books have not been closed yet: every day is open.'}
          </Typography>
        </Stack>
        {canClose && (
          <Button variant="outlined" onClick={() => setAsking(true)}>
            Close the books
          </Button>
        )}
      </Stack>
      {asking && <CloseDialog current={through} onClose={() => setAsking(false)} />}
    </Paper>
  );
};

const CloseDialog = ({ current, onClose }: { current: string | null; onClose: () => void }) => {
  const phone = usePhone();
  const client = useQueryClient();
  const { showSnackbar } = useSnackbar();
  const [day, setDay] = useState(() => dayBefore(localDayIso()));
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => closeBooks(day),
    onSuccess: async (c) => {
      showSnackbar({
        message: `Books closed through ${formatDate(c.through)}.`,
        severity: 'success',
        autoHideDuration: 4000,
      });
      await client.invalidateQueries({ queryKey: booksKeys.all });
      onClose();
    },
    onError: (e) =>
      setError((isApiError(e) && e.fields?.through) || errorMessage(e, 'The books could not be closed.')),
  });
  const invalid = !day
    ? 'Choose a day.'
    : current && day < current
      ? `The books are closed through ${formatDate(current)} already.`
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
      <DialogTitle id="close-books-title">Close the books</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Nothing can be posted, voided or adjusted on or before the day you close through: payments, voids,
          charges, expenses and manual entries dated then are refused, and rent still due for those days is
          posted on the first open day. A close cannot be undone.
        </DialogContentText>
        {current && (
          <Alert severity="info" sx={{ mb: 2 }}>
            Closed through {formatDate(current)} now.
          </Alert>
        )}
        <TextField
          type="date"
          label="Close through"
          value={day}
          onChange={(e) => {
            setDay(e.target.value);
            setError(null);
          }}
          fullWidth
          required
          error={!!(error ?? invalid)}
          helperText={error ?? invalid ?? (day ? `Closes ${formatDate(day)} and every day before it.` : '')}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: localDayIso() } }}
        />
      </DialogContent>
      <DialogButtons
        busy={save.isPending}
        onCancel={onClose}
        label={day ? `Close through ${formatDate(day)}` : 'Close'}
        onConfirm={() => save.mutate()}
        disabled={invalid !== null}
      />
    </Dialog>
  );
};
