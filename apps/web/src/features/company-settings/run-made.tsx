import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import { formatMoney, runItemText, type RentCycleRunAnswer } from '@kodi/domain';
import type { MoneyFormat } from '../../lib/resources.ts';

/** How many of a run's items show before 'Show all'. */
const SHOWN = 5;

/**
 * For whom the run made each late fee, rent increase and reminder (issue 26): the first few, the rest
 * behind 'Show all'; the answer's `not_listed` said in words.
 */
export const RunMade = ({ run, money }: { run: RentCycleRunAnswer; money: MoneyFormat }) => {
  const [open, setOpen] = useState(false);
  if (run.made.length === 0) return null;
  const text = (i: RentCycleRunAnswer['made'][number]) =>
    runItemText(i, (amount) => formatMoney(amount, money.currency, money.decimals));
  const item = (i: RentCycleRunAnswer['made'][number], n: number) => (
    <Box component="li" key={n} sx={{ overflowWrap: 'anywhere' }}>
      {text(i)}
    </Box>
  );
  const more = run.made.length - SHOWN;
  return (
    <Box data-testid="run-made" aria-label="What the run made">
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
            {open ? 'Show fewer' : `Show all ${run.made.length}`}
          </Button>
        </>
      ) : null}
      {run.not_listed > 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {`and ${run.not_listed} more not listed here (see the leases' charges and the message log).`}
        </Typography>
      ) : null}
    </Box>
  );
};
