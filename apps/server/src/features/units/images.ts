import { AppError } from '@kodi/domain';

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/** The type of an image by its first bytes, not its name: png, jpeg or webp, or undefined. */
export const sniffImage = (bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/webp' | undefined => {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'image/webp';
  return undefined;
};

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
