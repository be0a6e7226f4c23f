import { useId } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import WarningAmber from '@mui/icons-material/WarningAmber';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import { agingBuckets, canEdit, formatMoney } from '@kodi/domain';
import { StatIcon, StatTitle, ViewAllLink } from '../../components/ui/stat-card.tsx';
import { useSession } from '../../lib/session.ts';
import { filteredLink, propertySearch, useSelectedProperty } from '../../lib/property-filter.ts';
import { useCompanyMoney } from '../../lib/resources.ts';
import { arrearsSummaryQuery } from './arrears-queries.ts';
import { useT } from '../../lib/i18n.ts';

const ArrearsCardBody = () => {
  const id = useId();
  const { t } = useT();
  const title = t('dashboard.arrearsTitle');
  const company = useCompanyMoney();
  const { propertyId } = useSelectedProperty();
  const query = useQuery(arrearsSummaryQuery(propertyId));
  const data = query.data;
  return (
    <Card variant="outlined" component="section" aria-labelledby={id}>
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <StatIcon color="warning">
            <WarningAmber />
          </StatIcon>
          <Box sx={{ flexGrow: 1 }}>
            <StatTitle id={id}>{title}</StatTitle>
            {query.isError ? (
              <Typography variant="body2" sx={{ color: 'error.main' }}>
                {t('dashboard.arrearsFailed')}
              </Typography>
            ) : data ? (
              <Stack
                direction="row"
                spacing={1.5}
                useFlexGap
                sx={{ alignItems: 'baseline', flexWrap: 'wrap', rowGap: 0 }}
              >
                <Typography
                  variant="h4"
                  component="p"
                  sx={{
                    fontWeight: 600,
                    overflowWrap: 'anywhere',
                    fontSize: { xs: '1.6rem', sm: '2.125rem' },
                  }}
                  data-testid="total-arrears"
                >
                  {formatMoney(data.total, company.currency, company.decimals, company.language)}
                </Typography>
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {data.leases === 0
                    ? t('dashboard.arrearsNone')
                    : t('dashboard.arrearsOverdue', { count: data.leases })}
                </Typography>
              </Stack>
            ) : (
              <Skeleton variant="text" width={180} sx={{ fontSize: '2rem' }} />
            )}
            {data?.by_age && data.leases > 0 && (
              <Box
                component="ul"
                aria-label={t('dashboard.arrearsByAge')}
                sx={{
                  listStyle: 'none',
                  p: 0,
                  m: 0,
                  mt: 1,
                  display: 'grid',
                  gap: 1,
                  gridTemplateColumns: {
                    xs: 'repeat(2, minmax(0, 1fr))',
                    sm: 'repeat(3, minmax(0, 1fr))',
                    lg: 'repeat(6, minmax(0, 1fr))',
                  },
                }}
              >
                {agingBuckets.map((b) => (
                  <li key={b}>
                    <Link
                      component={RouterLink}
                      to={filteredLink('/arrears', { bucket: b }, propertyId)}
                      underline="hover"
                      sx={{ display: 'block', color: 'inherit' }}
                      data-testid={`arrears-${b}`}
                    >
                      <Typography
                        variant="caption"
                        component="span"
                        sx={{ color: 'text.secondary', display: 'block' }}
                      >
                        {t('dashboard.arrearsBucket', { bucket: b })}
                      </Typography>
                      <Typography
                        variant="body2"
                        component="span"
                        sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
                      >
                        {formatMoney(
                          data.by_age?.[b] ?? 0,
                          company.currency,
                          company.decimals,
                          company.language,
                        )}
                      </Typography>
                    </Link>
                  </li>
                ))}
                <li>
                  <Typography
                    variant="caption"
                    component="span"
                    sx={{ color: 'text.secondary', display: 'block' }}
                  >
                    {t('dashboard.arrearsTotalOwed')}
                  </Typography>
                  <Typography
                    variant="body2"
                    component="span"
                    sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
                  >
                    {formatMoney(data.by_age.balance, company.currency, company.decimals, company.language)}
                  </Typography>
                </li>
              </Box>
            )}
          </Box>
          <ViewAllLink to={`/arrears${propertySearch(propertyId)}`} title={title} />
        </Stack>
      </CardContent>
    </Card>
  );
};

/**
 * The dashboard's 'Total arrears' card, for admins and editors (who may open the Arrears page). It
 * has its own call (`GET /arrears/summary`), so `GET /dashboard` keeps its budget.
 */
export const ArrearsCard = () => {
  const { user } = useSession();
  return canEdit(user) ? <ArrearsCardBody /> : null;
};
