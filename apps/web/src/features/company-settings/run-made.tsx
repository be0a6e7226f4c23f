import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import { formatMoney, type RentCycleRunAnswer } from '@kodi/domain';
import type { MoneyFormat } from '../../lib/resources.ts';
import { useT, type Translate } from '../../lib/i18n.ts';

/** How many of a run's items show before 'Show all'. */
const SHOWN = 5;

type RunItem = RentCycleRunAnswer['made'][number];

/** An item in words (the English of the domain's `runItemText`). */
const itemText = (t: Translate, item: RunItem, money: (amount: number) => string): string => {
  const whom = item.unit_name
    ? t('settings.whomUnit', { tenant: item.tenant_name ?? t('settings.aTenant'), unit: item.unit_name })
    : (item.tenant_name ?? t('settings.aTenant'));
  if (item.kind === 'late_fee') return t('settings.itemLateFee', { amount: money(item.amount ?? 0), whom });
  if (item.kind === 'rent_increase')
    return t('settings.itemRentIncrease', { amount: money(item.amount ?? 0), whom });
  const text = t(item.channel === 'sms' ? 'settings.itemSmsReminder' : 'settings.itemEmailReminder', {
    whom,
  });
  return item.status === 'skipped' ? `${text} ${t('settings.notSent')}` : text;
};

/**
 * For whom the run made each late fee, rent increase and reminder (issue 26): the first few, the rest
 * behind 'Show all'; the answer's `not_listed` said in words.
 */
export const RunMade = ({ run, money }: { run: RentCycleRunAnswer; money: MoneyFormat }) => {
  const { t, language } = useT();
  const [open, setOpen] = useState(false);
  if (run.made.length === 0) return null;
  const text = (i: RunItem) =>
    itemText(t, i, (amount) => formatMoney(amount, money.currency, money.decimals, language));
  const item = (i: RentCycleRunAnswer['made'][number], n: number) => (
    <Box component="li" key={n} sx={{ overflowWrap: 'anywhere' }}>
      {text(i)}
    </Box>
  );
  const more = run.made.length - SHOWN;
  return (
    <Box data-testid="run-made" aria-label={t('settings.whatRunMade')}>
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
            {open ? t('settings.showFewer') : t('settings.showAll', { count: run.made.length })}
          </Button>
        </>
      ) : null}
      {run.not_listed > 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('settings.notListed', { count: run.not_listed })}
        </Typography>
      ) : null}
    </Box>
  );
};
