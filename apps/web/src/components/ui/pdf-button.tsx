import Button, { type ButtonProps } from '@mui/material/Button';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';

type PdfButtonProps = Omit<ButtonProps, 'startIcon' | 'loading' | 'loadingPosition'> & {
  /** The file is on its way: the icon turns into a spinner. */
  busy: boolean;
};

/** A button that downloads a PDF, with the PDF icon. */
export const PdfButton = ({ busy, ...props }: PdfButtonProps) => (
  <Button {...props} startIcon={<PictureAsPdf />} loading={busy} loadingPosition="start" />
);
