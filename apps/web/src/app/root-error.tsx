import { isRouteErrorResponse, useRouteError } from 'react-router';
import Box from '@mui/material/Box';
import { PageError } from '../components/lazy-page.tsx';

/** Last-resort error screen for anything the page boundaries did not catch. */
export const RootError = () => {
  const error = useRouteError();
  console.error(error);
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'Something went wrong.';
  return (
    <Box component="main" sx={{ p: 3 }}>
      <PageError message={message} />
    </Box>
  );
};
