import { useCallback, useEffect, useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import Refresh from '@mui/icons-material/Refresh';
import { API_BASE, ensureCsrfToken } from '../../lib/api-client.ts';
import { takeEarly } from '../../lib/early.ts';
import { FormTextField, type FieldOf } from './form-text-field.tsx';
import { LazyTooltip } from './lazy-tooltip.tsx';
import { useT } from '../../lib/i18n.ts';

export const CAPTCHA_WIDTH = 200;

type CaptchaImageProps = {
  /** Cache-buster; a new value loads a new image (and a new answer on the server). `null`: not yet. */
  nonce: number | null;
  failed: boolean;
  onRefresh: () => void;
  onError: () => void;
};

/** The CAPTCHA image, 200 px wide: click it, or the refresh button, for a new one. */
export const CaptchaImage = ({ nonce, failed, onRefresh, onError }: CaptchaImageProps) => {
  const { t } = useT();
  return (
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
            title={t('auth.clickNewImage')}
            onClick={onRefresh}
            onError={onError}
            style={{ display: 'block', width: CAPTCHA_WIDTH, height: 'auto', cursor: 'pointer' }}
          />
        )}
        {failed && (
          <Typography variant="body2" sx={{ color: 'text.secondary', px: 1, textAlign: 'center' }}>
            {t('auth.captchaNotLoaded')}
          </Typography>
        )}
      </Box>
      <LazyTooltip title={t('auth.newImage')} describeChild>
        <IconButton aria-label={t('auth.refreshCaptcha')} onClick={onRefresh}>
          <Refresh />
        </IconButton>
      </LazyTooltip>
    </Box>
  );
};

export type Captcha = {
  /** The session (and its CSRF token) exists and the first image is on its way. */
  ready: boolean;
  image: CaptchaImageProps;
  /** A captcha is used up by any attempt: clear the answer and load a new image. */
  reset: () => void;
};

/**
 * The CAPTCHA of a form. A session (and its CSRF token) comes first, before the first image, so
 * the server keeps the answer with it.
 */
export const useCaptcha = (clearAnswer: () => void): Captcha => {
  const [nonce, setNonce] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);

  const renew = useCallback(() => {
    setFailed(false);
    setNonce(Date.now());
  }, []);

  useEffect(() => {
    let live = true;
    // public/early.js may have opened the session and asked for the first image already: show that
    // one (its answer is the session's), and take the CSRF token beside it
    const early = takeEarly<{ nonce: number }>('captcha');
    void (early ?? Promise.resolve(null)).then((first) => {
      if (first && live) {
        setFailed(false);
        setNonce(first.nonce);
        void ensureCsrfToken();
        return;
      }
      void ensureCsrfToken().finally(() => {
        if (live) renew();
      });
    });
    return () => {
      live = false;
    };
  }, [renew]);

  return {
    ready: nonce !== null,
    image: { nonce, failed, onRefresh: renew, onError: () => setFailed(true) },
    reset: () => {
      clearAnswer();
      renew();
    },
  };
};

type CaptchaFieldProps<T extends FieldValues, V> = FieldOf<T, V> & { captcha: Captcha; required?: boolean };

/** The CAPTCHA image and the field for its answer. */
export const CaptchaField = <T extends FieldValues, V = T>({
  captcha,
  ...field
}: CaptchaFieldProps<T, V>) => {
  const { t } = useT();
  return (
    <>
      <CaptchaImage {...captcha.image} />
      <FormTextField {...field} label="CAPTCHA" autoComplete="off" helperText={t('auth.captchaHelp')} />
    </>
  );
};
