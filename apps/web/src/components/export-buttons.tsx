import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import GridOn from '@mui/icons-material/GridOn';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import { errorMessage } from '../lib/api-client.ts';
import { downloadFile } from '../lib/resources.ts';
import { useSnackbar } from './snackbar-provider.tsx';
import { useT } from '../lib/i18n.ts';

type ExportButtonsProps = {
  /** the report's path: its export is `${path}/export` */
  path: string;
  params: Record<string, string | number | undefined>;
  /** 'the income statement': the buttons are 'Export {label} to Excel' and '… to PDF' */
  label: string;
  /** the file's name when the server names none */
  filename: string;
};

/** A report's Excel and PDF exports, with the report's own query. */
export const ExportButtons = ({ path, params, label, filename }: ExportButtonsProps) => {
  const { showSnackbar } = useSnackbar();
  const { t } = useT();
  const [busy, setBusy] = useState<'xlsx' | 'pdf' | null>(null);
  const run = async (fmt: 'xlsx' | 'pdf') => {
    setBusy(fmt);
    try {
      await downloadFile(`${path}/export`, `${filename}.${fmt}`, { fmt, ...params });
    } catch (e) {
      showSnackbar({
        message: errorMessage(e, t('shell.exportFailed')),
        severity: 'error',
        autoHideDuration: 6000,
      });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack direction="row" spacing={1}>
      <Button
        size="small"
        variant="outlined"
        startIcon={<GridOn />}
        loading={busy === 'xlsx'}
        loadingPosition="start"
        onClick={() => void run('xlsx')}
        aria-label={t('shell.exportTo', { what: label, format: 'Excel' })}
      >
        Excel
      </Button>
      <Button
        size="small"
        variant="outlined"
        startIcon={<PictureAsPdf />}
        loading={busy === 'pdf'}
        loadingPosition="start"
        onClick={() => void run('pdf')}
        aria-label={t('shell.exportTo', { what: label, format: 'PDF' })}
      >
        PDF
      </Button>
    </Stack>
  );
};
