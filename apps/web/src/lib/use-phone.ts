import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';

/** A phone-sized screen (below `sm`, 600 px): lists show their rows as cards there. */
export const usePhone = (): boolean => {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
};
