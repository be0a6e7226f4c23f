import { useState, type ChangeEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Download from '@mui/icons-material/Download';
import UploadFile from '@mui/icons-material/UploadFile';
import type { Field } from '@kodi/domain';
import { imageDataUrl } from '../../lib/resources.ts';
import { i18n, useT } from '../../lib/i18n.ts';

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
export const DOCUMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'];
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

const readAsDataUrl = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(i18n._('resource.fileUnreadable')));
    reader.readAsDataURL(file);
  });

const megabytes = (n: number) => `${n / (1024 * 1024)} MB`;

/** Reads the chosen file when its type and size are allowed; otherwise says why not. */
const pickFile = async (
  event: ChangeEvent<HTMLInputElement>,
  types: string[],
  maxBytes: number,
  typeMessage: string,
): Promise<{ file: File; dataUrl: string } | { problem: string } | null> => {
  const file = event.target.files?.[0];
  event.target.value = '';
  if (!file) return null;
  if (!types.includes(file.type)) return { problem: typeMessage };
  if (file.size > maxBytes) return { problem: i18n._('resource.fileTooBig', { size: megabytes(maxBytes) }) };
  try {
    return { file, dataUrl: await readAsDataUrl(file) };
  } catch {
    return { problem: i18n._('resource.fileUnreadable') };
  }
};

type ImageFrameProps = {
  /** The image's data URL; none: 'No image provided.' */
  src: string | null;
  alt: string;
  height: number;
  /** Space under the frame (theme spacing). */
  mb?: number;
};

/** An image fitted into a grey frame of a fixed height, or 'No image provided.' */
export const ImageFrame = ({ src, alt, height, mb }: ImageFrameProps) => {
  const { t } = useT();
  return (
    <Box
      sx={{
        height,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        overflow: 'hidden',
        bgcolor: 'grey.50',
        mb,
      }}
    >
      {src ? (
        <Box
          component="img"
          src={src}
          alt={alt}
          sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
        />
      ) : (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('resource.noImage')}
        </Typography>
      )}
    </Box>
  );
};

type FilePickerProps = {
  label: string;
  /** The accepted MIME types. */
  types: string[];
  /** The field's label: the file input's accessible name. */
  fieldLabel: string;
  onChoose: (event: ChangeEvent<HTMLInputElement>) => Promise<void>;
};

/** An outlined button that opens the file chooser. */
const FilePicker = ({ label, types, fieldLabel, onChoose }: FilePickerProps) => (
  <Button component="label" size="small" variant="outlined" startIcon={<UploadFile />}>
    {label}
    <input
      type="file"
      hidden
      accept={types.join(',')}
      aria-label={fieldLabel}
      onChange={(e) => void onChoose(e)}
    />
  </Button>
);

type RemoveButtonProps = { label: string; ariaLabel?: string; onClick: () => void };

/** Removes the field's file: 'Remove image', 'Remove document'. */
const RemoveButton = ({ label, ariaLabel, onClick }: RemoveButtonProps) => (
  <Button size="small" color="error" startIcon={<DeleteOutline />} aria-label={ariaLabel} onClick={onClick}>
    {label}
  </Button>
);

type ImageInputProps = {
  field: Field;
  /** undefined: untouched (the record's image shows); '': removed; a data URL: the new image. */
  value: unknown;
  /** The record's image (base64 without prefix), when editing. */
  current: unknown;
  onChange: (value: string) => void;
  error?: string;
};

/** An image field: png, jpeg or webp up to 2 MB, with a preview and 'Remove image'. */
export const ImageInput = ({ field, value, current, onChange, error }: ImageInputProps) => {
  const [problem, setProblem] = useState<string | null>(null);
  const { t } = useT();
  const preview =
    value === undefined || value === null
      ? imageDataUrl(typeof current === 'string' ? current : null)
      : typeof value === 'string' && value
        ? value
        : null;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = await pickFile(event, IMAGE_TYPES, MAX_IMAGE_BYTES, t('resource.imageTypes'));
    if (!picked) return;
    if ('problem' in picked) return setProblem(picked.problem);
    setProblem(null);
    onChange(picked.dataUrl);
  };

  const message = problem ?? error;
  return (
    <Box>
      <Typography variant="subtitle2" component="p" sx={{ mb: 1 }}>
        {field.label}
      </Typography>
      <ImageFrame
        src={preview}
        alt={t('resource.imagePreview', { label: field.label })}
        height={140}
        mb={1}
      />
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
        <FilePicker
          label={t('resource.chooseImage')}
          types={IMAGE_TYPES}
          fieldLabel={field.label}
          onChoose={choose}
        />
        {preview && (
          <RemoveButton
            label={t('resource.removeImage')}
            ariaLabel={t('resource.removeImageOf', { label: field.label })}
            onClick={() => {
              setProblem(null);
              onChange('');
            }}
          />
        )}
      </Stack>
      {message && <FormHelperText error>{message}</FormHelperText>}
    </Box>
  );
};

type DocumentInputProps = {
  field: Field;
  /** undefined: untouched; '': removed; a data URL: the new file. */
  value: unknown;
  /** The name of the new file, or of the record's file. */
  fileName: string | null;
  /** The record holds a file that can be downloaded. */
  hasCurrent: boolean;
  onChange: (value: string, fileName: string) => void;
  onDownload?: () => void;
  error?: string;
};

/** A document field: pdf, png or jpeg up to 5 MB, with the current file's name and a download link. */
export const DocumentInput = ({
  field,
  value,
  fileName,
  hasCurrent,
  onChange,
  onDownload,
  error,
}: DocumentInputProps) => {
  const [problem, setProblem] = useState<string | null>(null);
  const { t } = useT();
  const untouched = value === undefined || value === null;
  const present = untouched ? hasCurrent : typeof value === 'string' && value !== '';

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = await pickFile(event, DOCUMENT_TYPES, MAX_DOCUMENT_BYTES, t('resource.documentTypes'));
    if (!picked) return;
    if ('problem' in picked) return setProblem(picked.problem);
    setProblem(null);
    onChange(picked.dataUrl, picked.file.name);
  };

  const message = problem ?? error;
  return (
    <Box>
      <Typography variant="subtitle2" component="p" sx={{ mb: 0.5 }}>
        {field.label}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="body2" sx={{ color: present ? 'text.primary' : 'text.secondary' }}>
          {present ? fileName || t('resource.document') : t('resource.noDocument')}
        </Typography>
        {present && untouched && onDownload && (
          <Button size="small" startIcon={<Download />} onClick={onDownload}>
            {t('resource.downloadButton')}
          </Button>
        )}
        <FilePicker
          label={present ? t('resource.replaceFile') : t('resource.chooseFile')}
          types={DOCUMENT_TYPES}
          fieldLabel={field.label}
          onChoose={choose}
        />
        {present && (
          <RemoveButton
            label={t('resource.removeDocument')}
            onClick={() => {
              setProblem(null);
              onChange('', '');
            }}
          />
        )}
      </Stack>
      <FormHelperText error={!!message}>{message ?? t('resource.documentHelp')}</FormHelperText>
    </Box>
  );
};
