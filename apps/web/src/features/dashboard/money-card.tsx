import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DashboardMoney } from '@kodi/domain';
import { filteredLink } from '../../lib/property-filter.ts';
import { useT, type Translate } from '../../lib/i18n.ts';

export const MONEY_TITLE = 'Collected this month';

type Figures = Omit<DashboardMoney, 'properties' | 'month' | 'from' | 'to'>;

/** '40% of UGX 2,000,000 due' or 'No rent due yet'. */
const percentText = (f: Figures, money: (n: number) => string, t: Translate) =>
  f.collected_percent === null
    ? t('dashboard.noRentDue')
    : t('dashboard.percentOfDue', { percent: f.collected_percent, amount: money(f.rent_due) });

/** A figure that opens the list of what it counts. */
const FigureLink = ({ to, label, children }: { to: string; label: string; children: React.ReactNode }) => (
  <Link component={RouterLink} to={to} aria-label={label} underline="hover" sx={{ color: 'inherit' }}>
    {children}
  </Link>
);

type MoneyCardProps = {
  money: DashboardMoney;
  format: (n: number) => string;
  propertyId: number | null;
};

/**
 * What came in this month against the rent due (issue 26, 'Money first'), overall and per property,
 * and the units let and vacant. Every figure links to the list that counts it: the month's completed
 * payments, the units by status, a property's dashboard. Numbers wrap as a whole, never cut.
 */
export const MoneyCard = ({ money, format, propertyId }: MoneyCardProps) => {
  const id = useId();
  const { t } = useT();
  const title = t('dashboard.collectedThisMonth');
  const { from, to } = money;
  const paymentsOf = (property: number | null) =>
    filteredLink('/payments', { status: 'completed', from, to }, property);
  const unitsOf = (status: string, property: number | null) => filteredLink('/units', { status }, property);
  return (
    <Card variant="outlined" component="section" aria-labelledby={id} data-testid="money-card">
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' },
            alignItems: 'start',
          }}
        >
          <Box sx={{ minWidth: 0 }}>
            <Typography
              id={id}
              variant="body2"
              component="h2"
              sx={{ color: 'text.secondary', fontWeight: 500 }}
            >
              {title}
            </Typography>
            <Typography
              variant="h4"
              component="p"
              sx={{ fontWeight: 600, overflowWrap: 'anywhere', fontSize: { xs: '1.6rem', sm: '2.125rem' } }}
            >
              <FigureLink to={paymentsOf(propertyId)} label={`${title}: ${format(money.collected)}`}>
                <span data-testid="collected">{format(money.collected)}</span>
              </FigureLink>
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="collected-percent">
              {percentText(money, format, t)}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={Math.min(100, money.collected_percent ?? 0)}
              aria-label={t('dashboard.shareCollected')}
              sx={{ mt: 1, height: 8, borderRadius: 4 }}
            />
          </Box>
          <Stack spacing={0.5}>
            <Typography variant="body2" component="h3" sx={{ color: 'text.secondary', fontWeight: 500 }}>
              {t('dashboard.occupancy')}
            </Typography>
            <Stack direction="row" spacing={3}>
              <FigureLink
                to={unitsOf('occupied', propertyId)}
                label={t('dashboard.letUnits', { count: money.let_units })}
              >
                <Typography component="span" variant="h5" sx={{ fontWeight: 600 }}>
                  {money.let_units}
                </Typography>{' '}
                <Typography component="span" variant="body2">
                  {t('dashboard.let')}
                </Typography>
              </FigureLink>
              <FigureLink
                to={unitsOf('available', propertyId)}
                label={t('dashboard.vacantUnits', { count: money.vacant_units })}
              >
                <Typography component="span" variant="h5" sx={{ fontWeight: 600 }}>
                  {money.vacant_units}
                </Typography>{' '}
                <Typography component="span" variant="body2">
                  {t('dashboard.vacant')}
                </Typography>
              </FigureLink>
            </Stack>
          </Stack>
        </Box>
        {money.properties.length > 1 && (
          <Box
            component="ul"
            aria-label={t('dashboard.byProperty')}
            sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }}
          >
            {money.properties.map((p) => (
              <Box
                component="li"
                key={p.property_id}
                sx={{
                  display: 'grid',
                  gridTemplateColumns: { xs: '1fr auto', sm: 'minmax(0, 2fr) 2fr 1fr' },
                  columnGap: 2,
                  alignItems: 'center',
                  py: 1,
                  borderTop: 1,
                  borderColor: 'divider',
                }}
              >
                <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                  {p.name}
                </Typography>
                <Typography variant="body2" sx={{ textAlign: { xs: 'right', sm: 'left' } }}>
                  <FigureLink
                    to={paymentsOf(p.property_id)}
                    label={t('dashboard.propertyCollected', { name: p.name, amount: format(p.collected) })}
                  >
                    {format(p.collected)}
                  </FigureLink>
                  <Box component="span" sx={{ color: 'text.secondary' }}>
                    {p.collected_percent === null ? '' : ` · ${p.collected_percent}%`}
                  </Box>
                </Typography>
                <Typography
                  variant="body2"
                  sx={{ color: 'text.secondary', gridColumn: { xs: '1 / -1', sm: 'auto' } }}
                >
                  <FigureLink
                    to={unitsOf('occupied', p.property_id)}
                    label={t('dashboard.propertyLet', { name: p.name, count: p.let_units })}
                  >
                    {t('dashboard.nLet', { count: p.let_units })}
                  </FigureLink>
                  {' · '}
                  <FigureLink
                    to={unitsOf('available', p.property_id)}
                    label={t('dashboard.propertyVacant', { name: p.name, count: p.vacant_units })}
                  >
                    {t('dashboard.nVacant', { count: p.vacant_units })}
                  </FigureLink>
                  {` · ${t('dashboard.amountDue', { amount: format(p.rent_due) })}`}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </CardContent>
    </Card>
  );
};
