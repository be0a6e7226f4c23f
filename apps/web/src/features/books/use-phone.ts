import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';

/** A phone-sized screen (below `sm`): the books' dialogs take the whole screen there. */
export const usePhone = (): boolean => {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
};
