import { createTheme } from '@mui/material/styles';

/** Light theme with a blue primary colour (01-core §1). Colours keep WCAG AA contrast. */
export const theme = createTheme({
  palette: {
    mode: 'light',
    // each colour's text is the one (white or dark) that reads at 4.5:1 on it (WCAG AA): the
    // default 3 left white on orange (a 'Pending' chip, 3.1:1) and on light blue (3.9:1)
    contrastThreshold: 4.5,
    primary: { main: '#1565c0' },
    background: { default: '#f5f7fb', paper: '#ffffff' },
  },
  typography: {
    fontFamily: 'Roboto, system-ui, -apple-system, "Segoe UI", "Helvetica Neue", Arial, sans-serif',
  },
  shape: { borderRadius: 8 },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { textTransform: 'none' } },
    },
    MuiAppBar: { defaultProps: { elevation: 1 } },
  },
});
