import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { allows, canEdit, payments, units } from '@kodi/domain';
import { errorMessage } from '../../lib/api-client.ts';
import { fetchPage } from '../../lib/pages.ts';
import { propertySearch } from '../../lib/property-filter.ts';
import { resourceKeys } from '../../lib/resources.ts';
import { useSession } from '../../lib/session.ts';
import { HeadCell } from '../../components/ui/head-cell.tsx';
import { EMPTY, EnumChip, fieldByName } from '../../components/resource/format.tsx';
import { useT } from '../../lib/i18n.ts';
import { useLocalizedDefinition } from '../../lib/entity-text.ts';

/** A unit of the property, as `GET /properties/{id}/units` answers it. */
type PropertyUnit = {
  id: number;
  name: string;
  status: string;
  occupancy_id: number | null;
  tenant_name: string | null;
};

/** The units the dialog lists at most (the Units page, filtered, has them all). */
const SHOWN = 100;

const unitsOfProperty = (propertyId: number) => ({
  // under the units' key: saving a unit or a lease (which refreshes those) refreshes this too
  queryKey: [...resourceKeys.entity('units'), 'of-property', propertyId] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    fetchPage<PropertyUnit>(`/properties/${propertyId}/units`, { page: 0, pageSize: SHOWN }, signal),
  placeholderData: keepPreviousData,
  staleTime: 0,
});

/**
 * The units of a property in its details dialog, each with its status and current tenant, and
 * links to the property's payments and arrears (the pages filtered by it).
 */
export const PropertyUnits = ({ propertyId }: { propertyId: number }) => {
  const headingId = useId();
  const { t } = useT();
  const statusField = fieldByName(useLocalizedDefinition(units), 'status');
  const { user } = useSession();
  const query = useQuery(unitsOfProperty(propertyId));
  const rows = query.data?.rows ?? [];
  const total = query.data?.total ?? 0;
  const search = propertySearch(propertyId);

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 1 }}
      >
        <Typography id={headingId} variant="h6" component="h3">
          {t('entityExtras.units')}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          <Button size="small" component={RouterLink} to={`/units${search}`}>
            {t('entityExtras.allItsUnits')}
          </Button>
          {allows(payments.access.read, user) && (
            <Button size="small" component={RouterLink} to={`/payments${search}`}>
              {t('entityExtras.itsPayments')}
            </Button>
          )}
          {canEdit(user) && (
            <Button size="small" component={RouterLink} to={`/arrears${search}`}>
              {t('entityExtras.itsArrears')}
            </Button>
          )}
        </Stack>
      </Stack>
      {query.isPending ? (
        <CircularProgress size={24} aria-label={t('entityExtras.loadingUnits')} />
      ) : query.isError ? (
        <Alert severity="error">{errorMessage(query.error, t('entityExtras.unitsFailed'))}</Alert>
      ) : rows.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('entityExtras.noUnits')}
        </Typography>
      ) : (
        <>
          <TableContainer>
            <Table size="small" aria-labelledby={headingId}>
              <TableHead>
                <TableRow>
                  <HeadCell>{t('entityExtras.unit')}</HeadCell>
                  <HeadCell>{t('entityExtras.status')}</HeadCell>
                  <HeadCell>{t('entityExtras.currentTenant')}</HeadCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((u) => (
                  <TableRow key={u.id}>
                    <TableCell>{u.name}</TableCell>
                    <TableCell>
                      <EnumChip field={statusField} value={u.status} />
                    </TableCell>
                    <TableCell>{u.tenant_name ?? EMPTY}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {total > rows.length && (
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
              {t('entityExtras.firstUnits', { shown: rows.length, total })}
            </Typography>
          )}
        </>
      )}
    </Box>
  );
};
