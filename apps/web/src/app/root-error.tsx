import { isRouteErrorResponse, useRouteError } from 'react-router';
import Box from '@mui/material/Box';
import { PageError } from '../components/lazy-page.tsx';
import { useT } from '../lib/i18n.ts';

/** Last-resort error screen for anything the page boundaries did not catch. */
export const RootError = () => {
  const error = useRouteError();
  const { t } = useT();
  console.error(error);
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : t('shell.somethingWrong');
  return (
    <Box component="main" sx={{ p: 3 }}>
      <PageError message={message} />
    </Box>
  );
};
