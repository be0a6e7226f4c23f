import { useId, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

type AccountCardProps = {
  title: string;
  /** A line under the title. */
  intro?: ReactNode;
  maxWidth?: number;
  children: ReactNode;
};

/** The centred card of the sign-up and password pages, titled by an h1. */
export const AccountCard = ({ title, intro, maxWidth = 440, children }: AccountCardProps) => {
  const headingId = useId();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: { xs: 1, sm: 4 } }}>
      <Paper
        variant="outlined"
        component="section"
        aria-labelledby={headingId}
        sx={{ width: '100%', maxWidth, p: { xs: 2.5, sm: 4 } }}
      >
        <Stack spacing={2.5}>
          <Stack spacing={0.5}>
            <Typography id={headingId} variant="h4" component="h1">
              {title}
            </Typography>
            {intro && (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {intro}
              </Typography>
            )}
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Box>
  );
};
