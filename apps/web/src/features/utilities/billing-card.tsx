import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { formatDate, formatMoney, localDayIso, type BillingRun } from '@kodi/domain';
import { api, errorMessage } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { useT, type Translate } from '../../lib/i18n.ts';

/** What a run did, a line each (the English of the domain's `billingRunText`). */
const runLines = (t: Translate, r: BillingRun, money: (amount: number) => string): string[] => [
  t('utilities.chargesMade', { count: r.charges_made, total: money(r.total_charged) }),
  ...(r.vacant.length > 0 ? [t('utilities.vacantBilled', { count: r.vacant.length })] : []),
  ...(r.held_back > 0 ? [t('utilities.heldBackCount', { count: r.held_back })] : []),
  ...(r.no_tariff > 0 ? [t('utilities.noTariff', { count: r.no_tariff })] : []),
];

/**
 * 'Run billing' (issue 28): the ready readings up to a day billed to the leases of their units
 * (`POST /utility-billing/run`, admins and company admins), and what the run did: the charges made,
 * the readings of vacant units billed to nobody, those held back.
 */
export const BillingCard = ({ propertyId }: { propertyId: number | null }) => {
  const { t, language } = useT();
  const company = useCompanyMoney();
  const money = (n: number) => formatMoney(n, company.currency, company.decimals, language);
  const [periodEnd, setPeriodEnd] = useState(localDayIso());
  const run = useMutation({
    mutationFn: () =>
      api.post<BillingRun>('/utility-billing/run', {
        period_end: periodEnd,
        ...(propertyId ? { property_id: propertyId } : {}),
      }),
  });
  const answer = run.data;
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            {t('utilities.billTitle')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              type="date"
              label={t('utilities.readingsUpTo')}
              value={periodEnd}
              onChange={(e) => setPeriodEnd(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <Button variant="contained" loading={run.isPending} onClick={() => run.mutate()}>
              {t('utilities.runBilling')}
            </Button>
          </Stack>
          {run.isError && (
            <Alert severity="error">{errorMessage(run.error, t('utilities.billingFailed'))}</Alert>
          )}
          {answer && (
            <Stack spacing={1} aria-label={t('utilities.billingResult')}>
              {runLines(t, answer, money).map((line) => (
                <Alert key={line} severity="success" icon={false}>
                  {line}
                </Alert>
              ))}
              {answer.charges.length > 0 && (
                <List
                  dense
                  aria-label={t('utilities.chargesMadeTitle')}
                  subheader={
                    <Typography variant="subtitle2" component="h3">
                      {t('utilities.chargesMadeTitle')}
                    </Typography>
                  }
                >
                  {answer.charges.map((c) => (
                    <ListItem key={c.charge_id} disableGutters>
                      <ListItemText
                        primary={`${c.unit_name ?? ''} · ${c.tenant_name ?? ''}: ${money(c.amount)}`}
                        secondary={`${formatDate(c.reading_date, language)} · ${c.description}`}
                      />
                    </ListItem>
                  ))}
                </List>
              )}
              {answer.vacant.length > 0 && (
                <List
                  dense
                  aria-label={t('utilities.billedToNobody')}
                  subheader={
                    <Typography variant="subtitle2" component="h3">
                      {t('utilities.billedToNobody')}
                    </Typography>
                  }
                >
                  {answer.vacant.map((v) => (
                    <ListItem key={v.reading_id} disableGutters>
                      <ListItemText
                        primary={t('utilities.letToNobody', {
                          unit: v.unit_name ?? '',
                          meter: v.meter_number,
                        })}
                        secondary={t('utilities.vacantLine', {
                          date: formatDate(v.reading_date, language),
                          used: String(v.consumption),
                          amount: money(v.amount),
                        })}
                      />
                    </ListItem>
                  ))}
                </List>
              )}
            </Stack>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
};
