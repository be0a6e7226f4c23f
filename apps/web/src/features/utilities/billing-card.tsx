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
import { billingRunText, formatDate, formatMoney, localDayIso, type BillingRun } from '@kodi/domain';
import { api, errorMessage } from '../../lib/api-client.ts';
import { useCompanyMoney } from '../../lib/resources.ts';

/**
 * 'Run billing' (issue 28): the ready readings up to a day billed to the leases of their units
 * (`POST /utility-billing/run`, admins and company admins), and what the run did: the charges made,
 * the readings of vacant units billed to nobody, those held back.
 */
export const BillingCard = ({ propertyId }: { propertyId: number | null }) => {
  const company = useCompanyMoney();
  const money = (n: number) => formatMoney(n, company.currency, company.decimals);
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
            Bill the readings
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              type="date"
              label="Readings up to"
              value={periodEnd}
              onChange={(e) => setPeriodEnd(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <Button variant="contained" loading={run.isPending} onClick={() => run.mutate()}>
              Run billing
            </Button>
          </Stack>
          {run.isError && (
            <Alert severity="error">{errorMessage(run.error, 'The billing could not run.')}</Alert>
          )}
          {answer && (
            <Stack spacing={1} aria-label="Billing result">
              {billingRunText(answer, money).map((line) => (
                <Alert key={line} severity="success" icon={false}>
                  {line}
                </Alert>
              ))}
              {answer.charges.length > 0 && (
                <List
                  dense
                  aria-label="Charges made"
                  subheader={
                    <Typography variant="subtitle2" component="h3">
                      Charges made
                    </Typography>
                  }
                >
                  {answer.charges.map((c) => (
                    <ListItem key={c.charge_id} disableGutters>
                      <ListItemText
                        primary={`${c.unit_name ?? ''} · ${c.tenant_name ?? ''}: ${money(c.amount)}`}
                        secondary={`${formatDate(c.reading_date)} · ${c.description}`}
                      />
                    </ListItem>
                  ))}
                </List>
              )}
              {answer.vacant.length > 0 && (
                <List
                  dense
                  aria-label="Billed to nobody"
                  subheader={
                    <Typography variant="subtitle2" component="h3">
                      Billed to nobody
                    </Typography>
                  }
                >
                  {answer.vacant.map((v) => (
                    <ListItem key={v.reading_id} disableGutters>
                      <ListItemText
                        primary={`${v.unit_name ?? ''} · ${v.meter_number}: let to nobody`}
                        secondary={`${formatDate(v.reading_date)} · ${String(v.consumption)} used, ${money(v.amount)} not charged`}
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
