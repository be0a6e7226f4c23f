import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useT } from '../../lib/i18n.ts';

type StatIconProps = {
  /** A palette colour ('success', 'warning', ...): its light shade behind, its dark one for the icon. */
  color: string;
  children: ReactNode;
};

/** The round icon of a figure card (decorative). */
export const StatIcon = ({ color, children }: StatIconProps) => (
  <Box
    aria-hidden="true"
    sx={{
      width: 48,
      height: 48,
      borderRadius: '50%',
      display: 'grid',
      placeItems: 'center',
      bgcolor: `${color}.50`,
      color: `${color}.700`,
      flexShrink: 0,
    }}
  >
    {children}
  </Box>
);

/** A figure card's title: a small h2 that names the card. */
export const StatTitle = ({ id, children }: { id: string; children: ReactNode }) => (
  <Typography id={id} variant="body2" component="h2" sx={{ color: 'text.secondary', fontWeight: 500 }}>
    {children}
  </Typography>
);

/** 'View All' of a figure card, named after it ('View All Pending Repairs'). */
export const ViewAllLink = ({ to, title }: { to: string; title: string }) => {
  const { t } = useT();
  return (
    <Button component={RouterLink} to={to} size="small" aria-label={t('shell.viewAllOf', { title })}>
      {t('shell.viewAll')}
    </Button>
  );
};
