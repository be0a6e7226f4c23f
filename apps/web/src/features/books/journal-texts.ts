import type { TranslateDerived } from '../../lib/i18n.ts';
import { sourceLabel } from './books-rules.ts';

/** The Journal's words in the page's language (issue 30; see books-texts.ts). */

/** A journal source's label in the page's language (`books.source.<source>`). */
export const sourceText = (source: string, td: TranslateDerived): string =>
  td(`books.source.${source}`, sourceLabel(source));

/** A problem of `draftProblem` in the page's language (`books.draft.*`). */
export const draftProblemText = (problem: string, td: TranslateDerived): string => {
  const line = /^Line (\d+): (.*)$/.exec(problem);
  if (line?.[2] === 'amounts are numbers with at most two decimals.')
    return td('books.draft.lineAmounts', problem, { line: line[1] ?? '' });
  if (line?.[2] === 'give either a debit or a credit.')
    return td('books.draft.lineSide', problem, { line: line[1] ?? '' });
  if (line?.[2] === 'choose an account.')
    return td('books.draft.lineAccount', problem, { line: line[1] ?? '' });
  if (problem === 'An entry has at least two lines.') return td('books.draft.twoLines', problem);
  if (problem === 'The entry does not balance: its debits must equal its credits.')
    return td('books.draft.unbalanced', problem);
  return problem;
};
