import { useId, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Build from '@mui/icons-material/Build';
import HomeWork from '@mui/icons-material/HomeWork';
import HourglassTop from '@mui/icons-material/HourglassTop';
import Payments from '@mui/icons-material/Payments';
import { useQuery } from '@tanstack/react-query';
import { expenseCategory, formatDate, formatMoney } from '@kodi/domain';
import { PageLoader } from '../../components/page-loader.tsx';
import { dashboardQuery, type Dashboard } from './dashboard-query.ts';
import { ArrearsCard } from '../arrears/arrears-card.tsx';

export const DASHBOARD_LIST_SIZE = 5;

export const EMPTY_TEXTS = {
  availableUnits: 'No available units at the moment.',
  pendingRepairs: 'No pending repairs at the moment.',
  recentPayments: 'No recent payments to display.',
  recentExpenses: 'No recent expenses to display.',
  incompletePayments: 'No incomplete payments at the moment.',
} as const;

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

const categoryLabel = (value: string) =>
  expenseCategory.labels[value as keyof typeof expenseCategory.labels] ?? value;

type CountCardProps = {
  title: string;
  count: number | undefined;
  to: string;
  icon: ReactNode;
  color: string;
};

const CountCard = ({ title, count, to, icon, color }: CountCardProps) => {
  const id = useId();
  return (
    <Card
      variant="outlined"
      component="section"
      aria-labelledby={id}
      sx={{ display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Box
            aria-hidden="true"
            sx={{
              width: 48,
              height: 48,
              borderRadius: '50%',
              display: 'grid',
              placeItems: 'center',
              bgcolor: `${color}.50`,
              color: `${color}.700`,
              flexShrink: 0,
            }}
          >
            {icon}
          </Box>
          <Box>
            <Typography
              id={id}
              variant="body2"
              component="h2"
              sx={{ color: 'text.secondary', fontWeight: 500 }}
            >
              {title}
            </Typography>
            <Typography variant="h4" component="p" sx={{ fontWeight: 600 }}>
              {count ?? 0}
            </Typography>
          </Box>
        </Stack>
      </CardContent>
      <CardActions sx={{ pt: 0, px: 2, pb: 1.5 }}>
        <Button component={RouterLink} to={to} size="small" aria-label={`View All ${title}`}>
          View All
        </Button>
      </CardActions>
    </Card>
  );
};

type ListCardProps = {
  title: string;
  empty: string;
  items: { key: number; primary: ReactNode; secondary?: ReactNode; side?: ReactNode }[];
};

const ListCard = ({ title, empty, items }: ListCardProps) => (
  <Card variant="outlined">
    <CardContent>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {items.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', py: 1 }}>
          {empty}
        </Typography>
      ) : (
        <List dense disablePadding aria-label={title}>
          {items.slice(0, DASHBOARD_LIST_SIZE).map((item) => (
            <ListItem
              key={item.key}
              divider
              disableGutters
              secondaryAction={
                item.side ? (
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {item.side}
                  </Typography>
                ) : undefined
              }
              sx={{ pr: item.side ? 14 : 0 }}
            >
              <ListItemText primary={item.primary} secondary={item.secondary} />
            </ListItem>
          ))}
        </List>
      )}
    </CardContent>
  </Card>
);

const DashboardBody = ({ data }: { data: Dashboard }) => {
  const currency = data.currency_code;
  const decimals = data.currency_decimal_places ?? undefined;
  const money = (n: number) => formatMoney(n, currency, decimals);
  const { counts } = data;

  return (
    <Stack spacing={3}>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
        }}
      >
        <CountCard
          title="Available Units"
          count={counts.available_units}
          to="/units"
          icon={<HomeWork />}
          color="success"
        />
        <CountCard
          title="Pending Repairs"
          count={counts.pending_repairs}
          to="/maintenance-requests"
          icon={<Build />}
          color="warning"
        />
        <CountCard
          title="Payments This Month"
          count={counts.payments_this_month}
          to="/payments"
          icon={<Payments />}
          color="primary"
        />
        <CountCard
          title="Incomplete Payments"
          count={counts.incomplete_payments}
          to="/payments"
          icon={<HourglassTop />}
          color="error"
        />
      </Box>

      <ArrearsCard />

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
        <ListCard
          title="Available Units"
          empty={EMPTY_TEXTS.availableUnits}
          items={data.available_units.map((u) => ({
            key: u.id,
            primary: u.name,
            secondary: u.address,
            side: `${money(u.monthly_rate)} / month`,
          }))}
        />
        <ListCard
          title="Pending Repairs"
          empty={EMPTY_TEXTS.pendingRepairs}
          items={data.pending_repairs.map((r) => ({
            key: r.id,
            primary: r.description,
            secondary: r.unit_name || 'Unknown Unit',
            side: formatDate(r.request_date),
          }))}
        />
        <ListCard
          title="Recent Payments"
          empty={EMPTY_TEXTS.recentPayments}
          items={data.recent_payments.map((p) => ({
            key: p.id,
            primary: money(p.amount_paid),
            secondary: fullName(p.tenant_first_name, p.tenant_last_name),
            side: formatDate(p.payment_date),
          }))}
        />
        <ListCard
          title="Recent Expenses"
          empty={EMPTY_TEXTS.recentExpenses}
          items={data.recent_expenses.map((e) => ({
            key: e.id,
            primary: `${money(e.amount)} · ${categoryLabel(e.category)}`,
            secondary: e.unit_name || 'No unit',
            side: formatDate(e.expense_date),
          }))}
        />
      </Box>

      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            Incomplete Payments (Pending)
          </Typography>
          {data.pending_payments.length === 0 ? (
            <Typography variant="body2" sx={{ color: 'text.secondary', py: 1 }}>
              {EMPTY_TEXTS.incompletePayments}
            </Typography>
          ) : (
            <TableContainer component={Paper} variant="outlined">
              <Table size="small" aria-label="Incomplete Payments (Pending)">
                <TableHead>
                  <TableRow>
                    <TableCell sx={{ fontWeight: 600 }}>Tenant</TableCell>
                    <TableCell sx={{ fontWeight: 600 }}>Unit</TableCell>
                    <TableCell sx={{ fontWeight: 600 }} align="right">
                      Amount
                    </TableCell>
                    <TableCell sx={{ fontWeight: 600 }}>Due Date</TableCell>
                    <TableCell sx={{ fontWeight: 600 }}>Details</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.pending_payments.map((p) => (
                    <TableRow key={p.id} hover>
                      <TableCell>{fullName(p.tenant_first_name, p.tenant_last_name)}</TableCell>
                      <TableCell>{p.unit_name || 'Unknown Unit'}</TableCell>
                      <TableCell align="right">{money(p.amount_paid)}</TableCell>
                      <TableCell>{formatDate(p.due_date)}</TableCell>
                      <TableCell>{p.payment_details || '—'}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </CardContent>
      </Card>
    </Stack>
  );
};

/**
 * The dashboard body (01-core §2 'Home dashboard'), shown to users who hold a role: four count
 * cards, four lists of up to 5 entries and the 'Incomplete Payments (Pending)' table, from one
 * `GET /dashboard`, refreshed every 10 minutes.
 */
export const DashboardContent = () => {
  const query = useQuery(dashboardQuery());
  if (query.isPending) return <PageLoader />;
  if (query.isError) return <Alert severity="error">Failed to load the dashboard.</Alert>;
  return <DashboardBody data={query.data} />;
};
