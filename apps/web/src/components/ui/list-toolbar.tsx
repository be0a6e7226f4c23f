import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Search from '@mui/icons-material/Search';

type ListSearchBoxProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Take all the room of the row (no 480 px cap). */
  wide?: boolean;
};

/** A small search field with the magnifier icon. */
export const ListSearchBox = ({ label, value, onChange, wide = false }: ListSearchBoxProps) => (
  <TextField
    label={label}
    type="search"
    size="small"
    value={value}
    onChange={(e) => onChange(e.target.value)}
    sx={wide ? { flexGrow: 1 } : { flexGrow: 1, maxWidth: { sm: 480 } }}
    slotProps={{
      input: {
        startAdornment: (
          <InputAdornment position="start">
            <Search fontSize="small" />
          </InputAdornment>
        ),
      },
    }}
  />
);

type ListToolbarProps = ListSearchBoxProps & {
  /** The buttons after the search field (pushed to the end unless the field is `wide`). */
  children?: ReactNode;
};

/** The row above a list: the search field, then the buttons; stacked on small screens. */
export const ListToolbar = ({ children, ...search }: ListToolbarProps) => (
  <Stack
    direction={{ xs: 'column', sm: 'row' }}
    spacing={1.5}
    sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}
  >
    <ListSearchBox {...search} />
    {!search.wide && <Box sx={{ flexGrow: 1 }} />}
    {children}
  </Stack>
);
