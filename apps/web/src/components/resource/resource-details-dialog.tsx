import { useEffect, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import Download from '@mui/icons-material/Download';
import { useQuery } from '@tanstack/react-query';
import type { EntityDefinition, Field } from '@kodi/domain';
import {
  downloadFile,
  imageDataUrl,
  recordQuery,
  useCompanyMoney,
  type ResourceRow,
} from '../../lib/resources.ts';
import { PageLoader } from '../page-loader.tsx';
import { useSnackbar } from '../snackbar-provider.tsx';
import { ImageFrame } from './file-inputs.tsx';
import { formatValue } from './format.tsx';
import { companionName } from './form-values.ts';
import { actionErrorText } from './messages.ts';
import type { ResourceExtras } from './types.ts';
import { useT } from '../../lib/i18n.ts';
import { useLocalizedDefinition } from '../../lib/entity-text.ts';

/**
 * The fields a details dialog lists: everything but the version, the has-file flags, the names a
 * reference or a document already shows (`tenant_name` for `tenant_id`, `lease_doc_name`).
 */
export const detailFields = (def: EntityDefinition): Field[] => {
  const covered = new Set<string>();
  for (const f of def.fields) {
    if (f.kind === 'reference') {
      const base = f.name.replace(/_id$/, '');
      covered.add(`${base}_name`).add(`${base}_first_name`).add(`${base}_last_name`);
    }
    if (f.kind === 'file') covered.add(companionName(f)).add(`has_${f.name}`);
  }
  return def.fields.filter(
    (f) =>
      f.name !== 'version' &&
      !covered.has(f.name) &&
      !(f.readOnly && f.kind === 'boolean' && f.name.startsWith('has_')),
  );
};

type ResourceDetailsDialogProps = {
  def: EntityDefinition;
  extras?: ResourceExtras;
  /** The record shown; null closes the dialog. */
  id: number | null;
  onClose: () => void;
};

/** 'Unit Details', 'Occupant Details', ...: every field of the record, formatted. */
export const ResourceDetailsDialog = ({
  def: definition,
  extras,
  id,
  onClose,
}: ResourceDetailsDialogProps) => {
  const def = useLocalizedDefinition(definition);
  const { t } = useT();
  const money = useCompanyMoney();
  const { showSnackbar } = useSnackbar();
  // Keeps showing the last record while the dialog closes.
  const [shownId, setShownId] = useState(id);
  if (id !== null && id !== shownId) setShownId(id);
  const query = useQuery({ ...recordQuery(def.name, shownId ?? 0), enabled: id !== null });
  const failed = query.isError ? actionErrorText(def, query.error, def.ui.messages.detailsFailed) : null;

  useEffect(() => {
    if (failed) showSnackbar({ message: failed, severity: 'error', autoHideDuration: def.ui.timeouts.error });
  }, [failed, showSnackbar, def]);

  const record = query.data;
  const fields = detailFields(def);
  const images = fields.filter((f) => f.kind === 'image');
  const others = fields.filter((f) => f.kind !== 'image');

  const show = (field: Field, r: ResourceRow): ReactNode => {
    const custom = extras?.details?.[field.name];
    if (custom) return custom(r);
    if (field.kind === 'file') return <DocumentLink def={def} field={field} record={r} />;
    return formatValue(def, field.name, r, money);
  };

  return (
    <Dialog
      open={id !== null}
      onClose={onClose}
      maxWidth={false}
      scroll="paper"
      slotProps={{ paper: { sx: { width: def.ui.dialogWidth, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle>{def.ui.detailsTitle}</DialogTitle>
      <DialogContent dividers>
        {query.isPending ? (
          <PageLoader />
        ) : failed || !record ? (
          <Alert severity="error">{failed ?? def.ui.messages.detailsFailed}</Alert>
        ) : (
          <>
            <Box
              component="dl"
              sx={{
                m: 0,
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', sm: 'minmax(140px, max-content) 1fr' },
                columnGap: 3,
                rowGap: 1.25,
                alignItems: 'baseline',
              }}
            >
              {others.map((field) => (
                <Box key={field.name} sx={{ display: 'contents' }}>
                  <Typography
                    component="dt"
                    variant="body2"
                    sx={{ color: 'text.secondary', fontWeight: 500 }}
                  >
                    {field.label}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, whiteSpace: 'pre-wrap' }}>
                    {show(field, record)}
                  </Typography>
                </Box>
              ))}
            </Box>
            {images.length > 0 && (
              <Box
                sx={{
                  mt: 3,
                  display: 'grid',
                  gridTemplateColumns: { xs: '1fr', sm: `repeat(${images.length}, 1fr)` },
                  gap: 2,
                }}
              >
                {images.map((field) => {
                  const src = imageDataUrl(record[field.name] as string | null | undefined);
                  return (
                    <Box key={field.name} component="figure" sx={{ m: 0 }}>
                      <ImageFrame src={src} alt={field.label} height={200} />
                      <Typography component="figcaption" variant="caption" sx={{ color: 'text.secondary' }}>
                        {field.label}
                      </Typography>
                    </Box>
                  );
                })}
              </Box>
            )}
            {extras?.detailsSection?.(record)}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('shell.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};

/** A stored document: its name and a download button (`GET /{entity}/{id}/{field}`). */
const DocumentLink = ({
  def,
  field,
  record,
}: {
  def: EntityDefinition;
  field: Field;
  record: ResourceRow;
}) => {
  const { showSnackbar } = useSnackbar();
  const { t } = useT();
  const name = record[companionName(field)];
  const has = record[`has_${field.name}`] === true || (typeof name === 'string' && name !== '');
  if (!has) return <>{t('resource.noDocument')}</>;
  const fileName = typeof name === 'string' && name ? name : field.name;
  return (
    <Button
      size="small"
      startIcon={<Download />}
      sx={{ ml: -0.5, textAlign: 'left' }}
      aria-label={t('resource.download', { what: field.label.toLowerCase(), file: fileName })}
      onClick={() =>
        void downloadFile(`/${def.name}/${record.id}/${field.name}`, fileName).catch((e: unknown) =>
          showSnackbar({
            message: actionErrorText(def, e, t('resource.downloadFailed')),
            severity: 'error',
            autoHideDuration: def.ui.timeouts.error,
          }),
        )
      }
    >
      {fileName}
    </Button>
  );
};
