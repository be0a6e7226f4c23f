import { useDeferredValue, useEffect, useId, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
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
import { HeadCell } from '../../components/ui/head-cell.tsx';
import { StatIcon, StatTitle, ViewAllLink } from '../../components/ui/stat-card.tsx';
import { filteredLink, useSelectedProperty } from '../../lib/property-filter.ts';
import { dashboardQuery, type Dashboard } from './dashboard-query.ts';
import { MoneyCard } from './money-card.tsx';
import { usePhone } from '../../lib/use-phone.ts';
import { useT, type Translate } from '../../lib/i18n.ts';
import type { MessageKey } from '@kodi/domain/i18n/web';

export const DASHBOARD_LIST_SIZE = 5;

export const EMPTY_TEXTS = {
  availableUnits: 'No available units at the moment.',
  pendingRepairs: 'No pending repairs at the moment.',
  recentPayments: 'No recent payments to display.',
  recentExpenses: 'No recent expenses to display.',
  incompletePayments: 'No incomplete payments at the moment.',
} as const;

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

/** An expense's category, by the label of its definition's option (in the page's language). */
const categoryLabel = (value: string, t: Translate) =>
  (expenseCategory.values as readonly string[]).includes(value)
    ? t('dashboard.category', { category: value })
    : value;

type CountCardProps = {
  title: MessageKey;
  count: number | undefined;
  to: string;
  icon: ReactNode;
  color: string;
};

const CountCard = ({ title: key, count, to, icon, color }: CountCardProps) => {
  const id = useId();
  const { t } = useT();
  const title = t(key);
  return (
    <Card
      variant="outlined"
      component="section"
      aria-labelledby={id}
      sx={{ display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <StatIcon color={color}>{icon}</StatIcon>
          <Box>
            <StatTitle id={id}>{title}</StatTitle>
            <Typography variant="h4" component="p" sx={{ fontWeight: 600 }}>
              {count ?? 0}
            </Typography>
          </Box>
        </Stack>
      </CardContent>
      <CardActions sx={{ pt: 0, px: 2, pb: 1.5 }}>
        <ViewAllLink to={to} title={title} />
      </CardActions>
    </Card>
  );
};

type DashboardCardProps = {
  title: string;
  /** The text shown instead of the content when there is nothing to show (`null`: there is). */
  empty: string | null;
  children?: ReactNode;
};

/** A titled card of the dashboard, or its empty text. */
const DashboardCard = ({ title, empty, children }: DashboardCardProps) => (
  <Card variant="outlined">
    <CardContent>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {empty !== null ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', py: 1 }}>
          {empty}
        </Typography>
      ) : (
        children
      )}
    </CardContent>
  </Card>
);

type ListItemData = { key: number; primary: ReactNode; secondary?: ReactNode; side?: ReactNode };

const item = (key: number, primary: ReactNode, secondary: ReactNode, side: ReactNode): ListItemData => ({
  key,
  primary,
  secondary,
  side,
});

type ListCardProps = { title: string; empty: string; items: ListItemData[] };

/** On a phone the side text goes under the item's text (beside it, it would cover it). */
const ListCard = ({ title, empty, items }: ListCardProps) => {
  const phone = usePhone();
  return (
    <DashboardCard title={title} empty={items.length === 0 ? empty : null}>
      <List dense disablePadding aria-label={title}>
        {items.slice(0, DASHBOARD_LIST_SIZE).map((item) => (
          <ListItem
            key={item.key}
            divider
            disableGutters
            secondaryAction={
              item.side && !phone ? (
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {item.side}
                </Typography>
              ) : undefined
            }
            sx={{ pr: item.side && !phone ? 14 : 0 }}
          >
            <ListItemText
              primary={item.primary}
              secondary={
                phone && item.side ? (
                  <>
                    {item.secondary}
                    <Box component="span" sx={{ display: 'block' }}>
                      {item.side}
                    </Box>
                  </>
                ) : (
                  item.secondary
                )
              }
              sx={{ overflowWrap: 'anywhere' }}
            />
          </ListItem>
        ))}
      </List>
    </DashboardCard>
  );
};

type CountCardSpec = Omit<CountCardProps, 'count' | 'to'> & {
  count: keyof Dashboard['counts'];
  /** the list that counts it, and its filter (issue 26: 'View All' opens what the card counts) */
  to: string;
  filter: (month: { from: string; to: string }) => Record<string, string>;
};

const COUNT_CARDS: CountCardSpec[] = [
  {
    title: 'dashboard.availableUnits',
    count: 'available_units',
    to: '/units',
    filter: () => ({ status: 'available' }),
    icon: <HomeWork />,
    color: 'success',
  },
  {
    title: 'dashboard.pendingRepairs',
    count: 'pending_repairs',
    to: '/maintenance-requests',
    filter: () => ({ status: 'open' }),
    icon: <Build />,
    color: 'warning',
  },
  {
    title: 'dashboard.paymentsThisMonth',
    count: 'payments_this_month',
    to: '/payments',
    filter: ({ from, to }) => ({ from, to }),
    icon: <Payments />,
    color: 'primary',
  },
  {
    title: 'dashboard.incompletePayments',
    count: 'incomplete_payments',
    to: '/payments',
    filter: () => ({ status: 'pending' }),
    icon: <HourglassTop />,
    color: 'error',
  },
];

/** The month the dashboard counts: the answer's, else today's (UTC). */
const monthOf = (data: Dashboard) => {
  if (data.money) return { from: data.money.from, to: data.money.to };
  const from = `${new Date().toISOString().slice(0, 7)}-01`;
  const d = new Date(`${from}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1, 0);
  return { from, to: d.toISOString().slice(0, 10) };
};

type DashboardBodyProps = {
  data: Dashboard;
  /** the property shown (null: the whole company): the cards' links keep it */
  propertyId?: number | null;
  /** Shown between the count cards and the lists (the app puts the arrears card there). */
  summary?: ReactNode;
};

/**
 * False for a component's first render, true once the browser has painted it: what lies below the
 * count cards waits one frame, so that the counts show as soon as their data is there (on a slow
 * machine the whole page is a few hundred milliseconds of rendering).
 */
const usePainted = (): boolean => {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return painted;
};

const DashboardBody = ({ data, summary, propertyId = null }: DashboardBodyProps) => {
  const painted = usePainted();
  const { language } = useT();
  const currency = data.currency_code;
  const decimals = data.currency_decimal_places ?? undefined;
  const money = (n: number) => formatMoney(n, currency, decimals, language);
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
        {COUNT_CARDS.map(({ filter, ...card }) => (
          <CountCard
            key={card.title}
            {...card}
            to={filteredLink(card.to, filter(monthOf(data)), propertyId)}
            count={counts[card.count]}
          />
        ))}
      </Box>

      {data.money && <MoneyCard money={data.money} format={money} propertyId={propertyId} />}

      {painted && <DashboardRest data={data} summary={summary} money={money} />}
    </Stack>
  );
};

/** Everything of the dashboard below its count cards. */
const DashboardRest = ({ data, summary, money }: DashboardBodyProps & { money: (n: number) => string }) => {
  const phone = usePhone();
  const { t, language } = useT();
  const date = (d: string | null | undefined) => formatDate(d, language);
  const unknownUnit = t('dashboard.unknownUnit');
  const units = data.available_units.map((u) =>
    item(u.id, u.name, u.address, t('dashboard.perMonth', { amount: money(u.monthly_rate) })),
  );
  const repairs = data.pending_repairs.map((r) =>
    item(r.id, r.description, r.unit_name || unknownUnit, date(r.request_date)),
  );
  const payments = data.recent_payments.map((p) => {
    const tenant = fullName(p.tenant_first_name, p.tenant_last_name);
    return item(p.id, money(p.amount_paid), tenant, date(p.payment_date));
  });
  const expenses = data.recent_expenses.map((e) => {
    const amount = `${money(e.amount)} · ${categoryLabel(e.category, t)}`;
    return item(e.id, amount, e.unit_name || t('dashboard.noUnit'), date(e.expense_date));
  });
  const pendingTitle = t('dashboard.incompletePending');

  return (
    <>
      {summary}

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
        <ListCard
          title={t('dashboard.availableUnits')}
          empty={t('dashboard.emptyAvailableUnits')}
          items={units}
        />
        <ListCard
          title={t('dashboard.pendingRepairs')}
          empty={t('dashboard.emptyPendingRepairs')}
          items={repairs}
        />
        <ListCard
          title={t('dashboard.recentPayments')}
          empty={t('dashboard.emptyRecentPayments')}
          items={payments}
        />
        <ListCard
          title={t('dashboard.recentExpenses')}
          empty={t('dashboard.emptyRecentExpenses')}
          items={expenses}
        />
      </Box>

      <DashboardCard
        title={pendingTitle}
        empty={data.pending_payments.length === 0 ? t('dashboard.emptyIncompletePayments') : null}
      >
        {phone ? (
          <List dense disablePadding aria-label={pendingTitle}>
            {data.pending_payments.map((p) => (
              <ListItem key={p.id} divider disableGutters>
                <ListItemText
                  primary={`${fullName(p.tenant_first_name, p.tenant_last_name)} · ${p.unit_name || unknownUnit}`}
                  secondary={[money(p.amount_paid), date(p.due_date), p.payment_details]
                    .filter(Boolean)
                    .join(' · ')}
                  sx={{ overflowWrap: 'anywhere' }}
                />
              </ListItem>
            ))}
          </List>
        ) : (
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label={pendingTitle}>
              <TableHead>
                <TableRow>
                  <HeadCell>{t('dashboard.tenant')}</HeadCell>
                  <HeadCell>{t('dashboard.unit')}</HeadCell>
                  <HeadCell align="right">{t('dashboard.amount')}</HeadCell>
                  <HeadCell>{t('dashboard.dueDate')}</HeadCell>
                  <HeadCell>{t('dashboard.details')}</HeadCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.pending_payments.map((p) => (
                  <TableRow key={p.id} hover>
                    <TableCell>{fullName(p.tenant_first_name, p.tenant_last_name)}</TableCell>
                    <TableCell>{p.unit_name || unknownUnit}</TableCell>
                    <TableCell align="right">{money(p.amount_paid)}</TableCell>
                    <TableCell>{date(p.due_date)}</TableCell>
                    <TableCell>{p.payment_details || '—'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </DashboardCard>
    </>
  );
};

/**
 * The dashboard body (01-core §2 'Home dashboard'), shown to users who hold a role: four count
 * cards, four lists of up to 5 entries and the 'Incomplete Payments (Pending)' table, from one
 * `GET /dashboard`, refreshed every 10 minutes.
 */
export const DashboardContent = ({ summary }: { summary?: ReactNode }) => {
  const { propertyId } = useSelectedProperty();
  const { t } = useT();
  const query = useQuery(dashboardQuery(propertyId));
  // drawn in a transition, in slices (the answer's update is synchronous: one long task on a phone
  // otherwise; issue 26), the loader or the previous figures meanwhile
  const data = useDeferredValue(query.data);
  if (query.isError) return <Alert severity="error">{t('dashboard.loadFailed')}</Alert>;
  if (data === undefined) return <PageLoader />;
  return <DashboardBody data={data} summary={summary} propertyId={propertyId} />;
};
