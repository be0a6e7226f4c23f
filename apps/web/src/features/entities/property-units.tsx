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

const statusField = fieldByName(units, 'status');

/**
 * The units of a property in its details dialog, each with its status and current tenant, and
 * links to the property's payments and arrears (the pages filtered by it).
 */
export const PropertyUnits = ({ propertyId }: { propertyId: number }) => {
  const headingId = useId();
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
          Units
        </Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          <Button size="small" component={RouterLink} to={`/units${search}`}>
            All its units
          </Button>
          {allows(payments.access.read, user) && (
            <Button size="small" component={RouterLink} to={`/payments${search}`}>
              Its payments
            </Button>
          )}
          {canEdit(user) && (
            <Button size="small" component={RouterLink} to={`/arrears${search}`}>
              Its arrears
            </Button>
          )}
        </Stack>
      </Stack>
      {query.isPending ? (
        <CircularProgress size={24} aria-label="Loading the units" />
      ) : query.isError ? (
        <Alert severity="error">{errorMessage(query.error, 'Failed to load the units.')}</Alert>
      ) : rows.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          No units in this property yet. Choose it as the property of a unit on the Units page.
        </Typography>
      ) : (
        <>
          <TableContainer>
            <Table size="small" aria-labelledby={headingId}>
              <TableHead>
                <TableRow>
                  <HeadCell>Unit</HeadCell>
                  <HeadCell>Status</HeadCell>
                  <HeadCell>Current Tenant</HeadCell>
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
              {`The first ${rows.length} of ${total} units, by name.`}
            </Typography>
          )}
        </>
      )}
    </Box>
  );
};
