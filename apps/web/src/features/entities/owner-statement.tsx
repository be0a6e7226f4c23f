import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { addDays, addMonths } from '@kodi/domain';
import { errorMessage } from '../../lib/api-client.ts';
import { downloadFile } from '../../lib/resources.ts';

const MONTH = /^\d{4}-\d{2}$/;

/**
 * An owner's statement for a chosen month as a PDF (issue 27), in its details: last month by default,
 * this month through today.
 */
export const OwnerStatement = ({ ownerId }: { ownerId: number }) => {
  const headingId = useId();
  const today = new Date().toISOString().slice(0, 10);
  const thisMonth = today.slice(0, 7);
  const [month, setMonth] = useState(() => addMonths(`${thisMonth}-01`, -1).slice(0, 7));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const download = async () => {
    const from = `${month}-01`;
    const last = addDays(addMonths(from, 1), -1);
    const to = last < today ? last : today;
    setBusy(true);
    setError('');
    try {
      await downloadFile(`/owners/${ownerId}/statement.pdf`, `owner_statement_${ownerId}_${from}_${to}.pdf`, {
        from,
        to,
      });
    } catch (e) {
      setError(errorMessage(e, 'The statement could not be downloaded.'));
    } finally {
      setBusy(false);
    }
  };

  const valid = MONTH.test(month) && month <= thisMonth;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h3" sx={{ mb: 1 }}>
        Owner statement
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <TextField
          size="small"
          type="month"
          label="Month"
          value={month}
          onChange={(e) => setMonth(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: thisMonth } }}
          error={!valid}
          helperText={valid ? undefined : 'Choose a month up to this one.'}
        />
        <Button size="small" variant="outlined" disabled={busy || !valid} onClick={() => void download()}>
          Statement
        </Button>
      </Stack>
      {error ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      ) : null}
    </Box>
  );
};
