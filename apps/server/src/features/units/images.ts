import { AppError } from '@kodi/domain';
import { sniffImage } from '../../platform/image-sniffing.ts';

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/**
 * Checks an uploaded image (base64, or a data URL) and answers the base64 to store:
 * '' or null clears it (null), undefined leaves it untouched.
 */
export const normaliseImage = (field: string, value: unknown): string | null | undefined => {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  if (typeof value !== 'string')
    throw new AppError('validation_failed', 'Invalid image.', { [field]: 'Invalid image.' });
  const base64 = value.replace(/^data:[^;,]*;base64,/, '').replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) {
    throw new AppError('validation_failed', 'Images must be png, jpeg or webp.', {
      [field]: 'Images must be png, jpeg or webp.',
    });
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new AppError('validation_failed', 'Images must be at most 2 MB.', {
      [field]: 'Images must be at most 2 MB.',
    });
  }
  if (!sniffImage(bytes)) {
    throw new AppError('validation_failed', 'Images must be png, jpeg or webp.', {
      [field]: 'Images must be png, jpeg or webp.',
    });
  }
  return base64;
};
