import type { FormEventHandler, ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';

type AccountFormProps = {
  /** The form's accessible name. */
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  busy: boolean;
  /** Under the submit button. */
  footer?: ReactNode;
  children: ReactNode;
};

/** The form of an account page: its fields, then the large submit button. */
export const AccountForm = ({ label, onSubmit, submitLabel, busy, footer, children }: AccountFormProps) => (
  <Box component="form" noValidate aria-label={label} onSubmit={onSubmit}>
    <Stack spacing={2.5}>
      {children}
      <Button type="submit" variant="contained" size="large" fullWidth loading={busy}>
        {submitLabel}
      </Button>
      {footer}
    </Stack>
  </Box>
);
