import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { TextInput, type TextInputProps } from './ui/text-input.tsx';
import { useT } from '../lib/i18n.ts';

/** A password text field with a 'Show password' / 'Hide password' toggle. */
export const PasswordField = (props: Omit<TextInputProps, 'type' | 'endAdornment'>) => {
  const [visible, setVisible] = useState(false);
  const { t } = useT();
  return (
    <TextInput
      {...props}
      type={visible ? 'text' : 'password'}
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            aria-label={visible ? t('shell.hidePassword') : t('shell.showPassword')}
            aria-pressed={visible}
            onClick={() => setVisible((v) => !v)}
            onMouseDown={(e) => e.preventDefault()}
            edge="end"
          >
            {visible ? <VisibilityOff /> : <Visibility />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
};
