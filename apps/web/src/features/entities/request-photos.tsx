import { useId } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { API_BASE, api } from '../../lib/api-client.ts';
import { resourceKeys } from '../../lib/resources.ts';
import { useT } from '../../lib/i18n.ts';

type Photo = { id: number; file_name: string | null; mime_type: string };

/** The mark of a request a tenant reported in the portal (issue 19), in the list and the details. */
export const SubmittedByTenant = () => {
  const { t } = useT();
  return (
    <Chip
      size="small"
      color="info"
      variant="outlined"
      label={t('entityExtras.submittedByTenant')}
      sx={{ mr: 1 }}
    />
  );
};

/** The photos of a maintenance request (a tenant adds up to 3 in the portal), in its details dialog. */
export const RequestPhotos = ({ requestId }: { requestId: number }) => {
  const headingId = useId();
  const { t } = useT();
  const query = useQuery({
    queryKey: [...resourceKeys.entity('maintenance_requests'), 'photos', requestId] as const,
    queryFn: () => api.get<Photo[]>(`/maintenance_requests/${requestId}/photos`),
  });
  const photos = query.data ?? [];
  if (photos.length === 0) return null;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h3" sx={{ mb: 1 }}>
        {t('entityExtras.photos')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
        {photos.map((p, i) => {
          const src = `${API_BASE}/maintenance_requests/${requestId}/photos/${p.id}`;
          return (
            <a key={p.id} href={src} target="_blank" rel="noreferrer">
              <img
                src={src}
                alt={p.file_name ?? t('entityExtras.photoN', { n: i + 1 })}
                loading="lazy"
                style={{ width: 120, height: 120, objectFit: 'cover', borderRadius: 4 }}
              />
            </a>
          );
        })}
      </Stack>
    </Box>
  );
};
