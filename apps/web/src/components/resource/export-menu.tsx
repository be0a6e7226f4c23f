import { useState } from 'react';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import FileDownload from '@mui/icons-material/FileDownload';
import GridOn from '@mui/icons-material/GridOn';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import { exportList, formatBytes, type ExportFormat } from '../../lib/resources.ts';
import { useSnackbar } from '../snackbar-provider.tsx';
import { useMenu } from '../ui/use-menu.ts';
import { useT } from '../../lib/i18n.ts';

type ExportMenuProps = {
  /** The list's path: the file comes from `GET /{path}/export`. */
  path: string;
  /** The visible column labels (without Actions). */
  headers: string[];
  q: string;
  /** the list's current sort (`field` or `-field`): the file has the rows in the order shown. */
  sort?: string | undefined;
  /** The snackbar's text when the export fails. */
  errorText: (error: unknown) => string;
  /** How long that snackbar stays (the snackbar's default without it). */
  errorMs?: number;
  /** The button shows the bytes received while the file downloads. */
  showProgress?: boolean;
  /** More parameters of the list (`property_id`): the file has the rows shown. */
  more?: Record<string, string | number | undefined>;
};

/** Export: 'Excel (xlsx)' or 'PDF' of a list (`GET /{path}/export`), saved as the server names it. */
export const ExportMenu = ({
  path,
  headers,
  q,
  sort,
  errorText,
  errorMs,
  showProgress = false,
  more,
}: ExportMenuProps) => {
  const menu = useMenu();
  const { t } = useT();
  const { showSnackbar } = useSnackbar();
  const [busy, setBusy] = useState(false);
  const [received, setReceived] = useState(0);

  const run = async (fmt: ExportFormat) => {
    menu.close();
    setBusy(true);
    setReceived(0);
    try {
      await exportList(path, fmt, headers, q, sort, showProgress ? setReceived : undefined, more);
    } catch (e) {
      showSnackbar({ message: errorText(e), severity: 'error', autoHideDuration: errorMs });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        {...menu.buttonProps}
        aria-expanded={menu.open ? 'true' : undefined}
        variant="outlined"
        startIcon={<FileDownload />}
        loading={busy}
        loadingPosition="start"
      >
        {busy && showProgress
          ? received > 0
            ? t('shell.exporting', { size: formatBytes(received) })
            : t('shell.preparing')
          : t('shell.export')}
      </Button>
      <Menu {...menu.menuProps}>
        <MenuItem onClick={() => void run('xlsx')}>
          <ListItemIcon>
            <GridOn fontSize="small" />
          </ListItemIcon>
          <ListItemText>Excel (xlsx)</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => void run('pdf')}>
          <ListItemIcon>
            <PictureAsPdf fontSize="small" />
          </ListItemIcon>
          <ListItemText>PDF</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
};
