import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import { formatMoney, runItemMessage, runItemText, type RentCycleRunAnswer } from '@kodi/domain';
import type { MoneyFormat } from '../../lib/resources.ts';
import { useT } from '../../lib/i18n.ts';
import { useTexts } from '../../lib/texts.ts';

/** How many of a run's items show before 'Show all'. */
const SHOWN = 5;

/**
 * For whom the run made each late fee, rent increase and reminder (issue 26): the first few, the rest
 * behind 'Show all'; the answer's `not_listed` said in words.
 */
export const RunMade = ({ run, money }: { run: RentCycleRunAnswer; money: MoneyFormat }) => {
  const [open, setOpen] = useState(false);
  const { td, language } = useT();
  useTexts('domain'); // (English until it is in)
  if (run.made.length === 0) return null;
  // the page's language (issue 30); English as the rules write it
  const text = (i: RentCycleRunAnswer['made'][number]) => {
    const fmt = (amount: number) => formatMoney(amount, money.currency, money.decimals, language);
    const m = runItemMessage(i, fmt, td('domainTexts.runATenant', 'a tenant'));
    return td(m.key, runItemText(i, fmt), m.values);
  };
  const item = (i: RentCycleRunAnswer['made'][number], n: number) => (
    <Box component="li" key={n} sx={{ overflowWrap: 'anywhere' }}>
      {text(i)}
    </Box>
  );
  const more = run.made.length - SHOWN;
  return (
    <Box data-testid="run-made" aria-label={td('domainTexts.runMadeLabel', 'What the run made')}>
      <Typography variant="body2" component="ul" sx={{ m: 0, pl: 2.5 }}>
        {run.made.slice(0, SHOWN).map(item)}
      </Typography>
      {more > 0 ? (
        <>
          <Collapse in={open} unmountOnExit>
            <Typography variant="body2" component="ul" sx={{ m: 0, pl: 2.5 }}>
              {run.made.slice(SHOWN).map((i, n) => item(i, n + SHOWN))}
            </Typography>
          </Collapse>
          <Button size="small" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open
              ? td('domainTexts.runShowFewer', 'Show fewer')
              : td('domainTexts.runShowAll', `Show all ${run.made.length}`, { count: run.made.length })}
          </Button>
        </>
      ) : null}
      {run.not_listed > 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {td(
            'domainTexts.runNotListed',
            `and ${run.not_listed} more not listed here (see the leases' charges and the message log).`,
            { count: run.not_listed },
          )}
        </Typography>
      ) : null}
    </Box>
  );
};
