import { useId, type ChangeEventHandler, type FocusEventHandler, type ReactNode, type Ref } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';

export type TextInputProps = {
  label: string;
  name?: string;
  value?: string;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  fullWidth?: boolean;
  /** Shown under the field (its error, or a hint). */
  helperText?: ReactNode;
  placeholder?: string;
  /** Inside the field, at its end (e.g. the password's show/hide button). */
  endAdornment?: ReactNode;
  onChange?: ChangeEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  onBlur?: FocusEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  inputRef?: Ref<HTMLInputElement>;
  /** The field's root element, as MUI's TextField forwards it. */
  ref?: Ref<HTMLDivElement>;
};

/**
 * An outlined single-line text field: what MUI's `TextField` renders for one (same elements, classes,
 * ids and ARIA links: the label's `for`, the helper text's `aria-describedby`), without importing its
 * `select` mode, which brings Select, Menu, Popover and Modal into every page with a form field.
 */
export const TextInput = ({
  label,
  helperText,
  required = false,
  disabled = false,
  error = false,
  fullWidth = false,
  endAdornment,
  ref,
  ...input
}: TextInputProps) => {
  const id = useId();
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl
      ref={ref}
      className="MuiTextField-root"
      disabled={disabled}
      error={error}
      fullWidth={fullWidth}
      required={required}
      color="primary"
      variant="outlined"
    >
      {label !== '' && (
        <InputLabel htmlFor={id} id={`${id}-label`}>
          {label}
        </InputLabel>
      )}
      <OutlinedInput
        {...input}
        id={id}
        aria-describedby={helperTextId}
        fullWidth={fullWidth}
        label={label}
        endAdornment={endAdornment}
      />
      {helperText && <FormHelperText id={helperTextId}>{helperText}</FormHelperText>}
    </FormControl>
  );
};
