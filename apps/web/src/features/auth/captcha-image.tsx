import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Refresh from '@mui/icons-material/Refresh';
import { API_BASE } from '../../lib/api-client.ts';

export const CAPTCHA_WIDTH = 200;

type CaptchaImageProps = {
  /** Cache-buster; a new value loads a new image (and a new answer on the server). `null`: not yet. */
  nonce: number | null;
  failed: boolean;
  onRefresh: () => void;
  onError: () => void;
};

/** The CAPTCHA image, 200 px wide: click it, or the refresh button, for a new one. */
export const CaptchaImage = ({ nonce, failed, onRefresh, onError }: CaptchaImageProps) => (
  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
    <Box
      sx={{
        width: CAPTCHA_WIDTH,
        minHeight: 64,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: 'grey.50',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        overflow: 'hidden',
      }}
    >
      {nonce !== null && !failed && (
        <img
          src={`${API_BASE}/captcha?t=${nonce}`}
          alt="CAPTCHA"
          width={CAPTCHA_WIDTH}
          title="Click for a new image"
          onClick={onRefresh}
          onError={onError}
          style={{ display: 'block', width: CAPTCHA_WIDTH, height: 'auto', cursor: 'pointer' }}
        />
      )}
      {failed && (
        <Typography variant="body2" sx={{ color: 'text.secondary', px: 1, textAlign: 'center' }}>
          The CAPTCHA image could not be loaded.
        </Typography>
      )}
    </Box>
    <Tooltip title="New image" describeChild>
      <IconButton aria-label="Refresh CAPTCHA" onClick={onRefresh}>
        <Refresh />
      </IconButton>
    </Tooltip>
  </Box>
);
