import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { addMonths, localDayIso } from '@kodi/domain';
import { api, errorMessage } from '../../lib/api-client.ts';
import { downloadFile } from '../../lib/resources.ts';
import { useT, type Translate } from '../../lib/i18n.ts';

const MONTH = /^\d{4}-\d{2}$/;

type SendAnswer = { channel: 'email' | 'sms'; to: string | null; status: 'queued' | 'skipped' | 'already' };

const sentText = (s: SendAnswer, t: Translate) => {
  if (s.status === 'queued') return t('entityExtras.sentQueued', { channel: s.channel, to: s.to ?? '' });
  if (s.status === 'already') return t('entityExtras.sentAlready', { channel: s.channel });
  return t('entityExtras.sentSkipped', { channel: s.channel });
};

/**
 * An owner's statement for a chosen month as a PDF, sent to them (e-mail and SMS through the message
 * log), and their rental-tax certificate of the month (issue 27), in its details: last month by
 * default, this month through today.
 */
export const OwnerStatement = ({ ownerId }: { ownerId: number }) => {
  const headingId = useId();
  const { t } = useT();
  // the picker goes up to the month of the browser's tomorrow (the company may already be a day
  // ahead); the server ends the period at the company's today
  const thisMonth = localDayIso(new Date(Date.now() + 86_400_000)).slice(0, 7);
  const [month, setMonth] = useState(() => addMonths(`${localDayIso().slice(0, 7)}-01`, -1).slice(0, 7));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');

  // the month's first day only: the server ends the period at the month's end or at the company's
  // today if sooner (this browser's today may not be the company's)
  const period = () => ({ from: `${month}-01` });
  /** One action at a time: busy while it runs, its failure shown. */
  const act = async (what: () => Promise<unknown>, failed: string) => {
    setBusy(true);
    setError('');
    setDone('');
    try {
      await what();
    } catch (e) {
      setError(errorMessage(e, failed));
    } finally {
      setBusy(false);
    }
  };
  const download = () =>
    act(async () => {
      await downloadFile(
        `/owners/${ownerId}/statement.pdf`,
        `owner_statement_${ownerId}_${month}.pdf`,
        period(),
      );
    }, t('entityExtras.statementDownloadFailed'));
  const certificate = () =>
    act(
      () =>
        downloadFile(`/owners/${ownerId}/tax-certificate`, `rental_tax_certificate_${ownerId}_${month}.pdf`, {
          month,
        }),
      t('entityExtras.certificateDownloadFailed'),
    );
  const send = () =>
    act(async () => {
      const answer = await api.post<{ sent: SendAnswer[] }>(`/owners/${ownerId}/statement/send`, period());
      setDone(answer.sent.map((s) => sentText(s, t)).join(' '));
    }, t('entityExtras.statementSendFailed'));

  const valid = MONTH.test(month) && month <= thisMonth;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h3" sx={{ mb: 1 }}>
        {t('entityExtras.ownerStatement')}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <TextField
          size="small"
          type="month"
          label={t('entityExtras.month')}
          value={month}
          onChange={(e) => setMonth(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: thisMonth } }}
          error={!valid}
          helperText={valid ? undefined : t('entityExtras.monthUpToThis')}
        />
        <Button size="small" variant="outlined" disabled={busy || !valid} onClick={() => void download()}>
          {t('entityExtras.statement')}
        </Button>
        <Button size="small" variant="outlined" disabled={busy || !valid} onClick={() => void send()}>
          {t('entityExtras.sendStatement')}
        </Button>
        <Button size="small" variant="outlined" disabled={busy || !valid} onClick={() => void certificate()}>
          {t('entityExtras.taxCertificate')}
        </Button>
      </Stack>
      {done ? (
        <Alert severity="success" sx={{ mt: 1 }} role="status">
          {done}
        </Alert>
      ) : null}
      {error ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      ) : null}
    </Box>
  );
};
