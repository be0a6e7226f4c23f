import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import FileDownload from '@mui/icons-material/FileDownload';
import GridOn from '@mui/icons-material/GridOn';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import type { EntityDefinition } from '@kodi/domain';
import { exportList, formatBytes, type ExportFormat } from '../../lib/resources.ts';
import { useSnackbar } from '../snackbar-provider.tsx';
import { actionErrorText } from './messages.ts';

type ExportMenuProps = {
  def: EntityDefinition;
  /** The visible column labels (without Actions). */
  headers: string[];
  q: string;
  /** the list's current sort (`field` or `-field`): the file has the rows in the order shown. */
  sort?: string | undefined;
};

/** Export: 'Excel (xlsx)' or 'PDF' of the list (`GET /{entity}/export`), saved as the server names it. */
export const ExportMenu = ({ def, headers, q, sort }: ExportMenuProps) => {
  const id = useId();
  const { showSnackbar } = useSnackbar();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const [received, setReceived] = useState(0);

  const run = async (fmt: ExportFormat) => {
    setAnchor(null);
    setBusy(true);
    setReceived(0);
    try {
      await exportList(def.name, fmt, headers, q, sort, setReceived);
    } catch (e) {
      showSnackbar({
        message: actionErrorText(def, e, 'The export failed.'),
        severity: 'error',
        autoHideDuration: def.ui.timeouts.error,
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        id={`${id}-button`}
        variant="outlined"
        startIcon={<FileDownload />}
        aria-haspopup="menu"
        aria-controls={anchor ? `${id}-menu` : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        loading={busy}
        loadingPosition="start"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {busy ? (received > 0 ? `Exporting… ${formatBytes(received)}` : 'Preparing…') : 'Export'}
      </Button>
      <Menu
        id={`${id}-menu`}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': `${id}-button` } }}
      >
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
