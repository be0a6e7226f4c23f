import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { hasAnyRole } from '@kodi/domain';
import { useSession } from '../../lib/session.ts';
import { PropertyFilter } from '../../components/property-filter.tsx';
import { DashboardContent } from './dashboard-content.tsx';
import { useT } from '../../lib/i18n.ts';

export const NO_ROLE_NOTICE =
  "Your account is waiting for access. An administrator must grant you a role before you can see your company's data.";

/**
 * Home (01-core §2 'Home dashboard'). The route guard guarantees a signed-in user. `summary` goes
 * between the dashboard's count cards and its lists.
 */
export const HomePage = ({ summary }: { summary?: ReactNode }) => {
  const { user } = useSession();
  const { t } = useT();
  if (!user) return null;

  return (
    <Stack spacing={3}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-end' } }}
      >
        <Stack spacing={0.5}>
          <Typography variant="h4" component="h1">
            {t('dashboard.title')}
          </Typography>
          <Typography sx={{ color: 'text.secondary' }}>
            {t('dashboard.welcome', { name: user.first_name })}
          </Typography>
        </Stack>
        {hasAnyRole(user) && <PropertyFilter />}
      </Stack>
      {hasAnyRole(user) ? (
        <DashboardContent summary={summary} />
      ) : (
        <Alert severity="info">{t('dashboard.noRole')}</Alert>
      )}
    </Stack>
  );
};
