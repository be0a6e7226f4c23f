import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import Alert from '@mui/material/Alert';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Fab from '@mui/material/Fab';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Zoom from '@mui/material/Zoom';
import useScrollTrigger from '@mui/material/useScrollTrigger';
import ExpandMore from '@mui/icons-material/ExpandMore';
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import UnfoldLess from '@mui/icons-material/UnfoldLess';
import UnfoldMore from '@mui/icons-material/UnfoldMore';
import { ListToolbar } from '../../components/ui/list-toolbar.tsx';
import { useT } from '../../lib/i18n.ts';
import { SUPPORT_EMAIL, serverInfoQuery } from '../../lib/server-info.ts';
import { loadHelpTopics, prefetchHelpTopics } from './help-loader.ts';
import { FIRST_TOPIC, topicText, type HelpBlock, type HelpTopic } from './help-shared.ts';

// the topics in the page's language, asked as soon as the page's code is in (beside its texts) rather
// than once it renders; not from the route table, whose chunk is every page's (their budgets)
prefetchHelpTopics();

const NO_TOPICS: HelpTopic[] = [];
const EMAIL_MARK = '\u0000';

const Block = ({ block }: { block: HelpBlock }): ReactNode => {
  switch (block.kind) {
    case 'p':
      return <Typography>{block.text}</Typography>;
    case 'list':
      return (
        <Box component="ul" sx={{ my: 0, pl: 3, '& li + li': { mt: 0.75 } }}>
          {block.items.map((item) => (
            <Typography component="li" key={item}>
              {item}
            </Typography>
          ))}
        </Box>
      );
    case 'qa':
      return (
        <Stack spacing={1.5}>
          {block.items.map((item) => (
            <Box key={item.q}>
              <Typography component="h3" sx={{ fontWeight: 600 }}>
                {item.q}
              </Typography>
              <Typography>{item.a}</Typography>
            </Box>
          ))}
        </Stack>
      );
    case 'terms':
      return (
        <Box component="dl" sx={{ my: 0, '& dd': { ml: 0, mb: 1.25 } }}>
          {block.items.map((item) => (
            <Box key={item.term}>
              <Typography component="dt" sx={{ fontWeight: 600 }}>
                {item.term}
              </Typography>
              <Typography component="dd">{item.text}</Typography>
            </Box>
          ))}
        </Box>
      );
  }
};

const ScrollTopButton = () => {
  const { t } = useT();
  const trigger = useScrollTrigger({ disableHysteresis: true, threshold: 200 });
  return (
    <Zoom in={trigger}>
      <Fab
        color="primary"
        size="medium"
        aria-label={t('help.scrollTop')}
        onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
        sx={{ position: 'fixed', right: { xs: 16, sm: 24 }, bottom: { xs: 16, sm: 24 } }}
        tabIndex={trigger ? 0 : -1}
      >
        <KeyboardArrowUp />
      </Fab>
    </Zoom>
  );
};

/** Lower case without accents: 'recu' finds 'reçu', 'echeance' 'échéance'. */
const fold = (text: string) => text.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

const searchWords = (value: string) => fold(value.trim()).split(/\s+/).filter(Boolean);

const matches = (topic: HelpTopic, words: string[]) => {
  const text = fold(topicText(topic));
  return words.every((w) => text.includes(w));
};

/**
 * Help Center (02-admin §2): a searchable accordion of topics, the first one open; its words in the
 * page's language (issue 30: the topics' text a chunk per language, help-loader.ts).
 */
export const HelpPage = () => {
  const { t, language } = useT();
  const topicsQuery = useQuery({
    queryKey: ['help-topics', language],
    queryFn: () => loadHelpTopics(language),
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const helpTopics = topicsQuery.data ?? NO_TOPICS;
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set([FIRST_TOPIC]));
  const info = useQuery(serverInfoQuery());
  const supportEmail = info.data?.supportEmail ?? SUPPORT_EMAIL;
  // the address is a link inside the sentence, where the language puts it
  const [supportBefore = '', supportAfter = ''] = t('help.writeSupport', { email: EMAIL_MARK }).split(
    EMAIL_MARK,
  );

  const words = useMemo(() => searchWords(search), [search]);
  const visible = useMemo(
    () => (words.length === 0 ? helpTopics : helpTopics.filter((topic) => matches(topic, words))),
    [words, helpTopics],
  );

  const onSearch = (value: string) => {
    setSearch(value);
    const w = searchWords(value);
    // While searching, the matching topics open; clearing the search goes back to the first topic.
    setExpanded(
      new Set(
        w.length === 0
          ? [FIRST_TOPIC]
          : helpTopics.filter((topic) => matches(topic, w)).map((topic) => topic.id),
      ),
    );
  };

  const toggle = (id: string, open: boolean) =>
    setExpanded((set) => {
      const next = new Set(set);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <Stack spacing={2.5} sx={{ maxWidth: 900, mx: 'auto' }}>
      <Stack spacing={0.5}>
        <Typography variant="h4" component="h1">
          {t('help.title')}
        </Typography>
        <Typography sx={{ color: 'text.secondary' }}>{t('help.intro')}</Typography>
      </Stack>

      <ListToolbar label={t('help.search')} value={search} onChange={onSearch} wide>
        <Stack direction="row" spacing={1}>
          <Button
            variant="outlined"
            startIcon={<UnfoldMore />}
            onClick={() => setExpanded(new Set(visible.map((topic) => topic.id)))}
            sx={{ flex: { xs: 1, sm: 'none' }, whiteSpace: 'nowrap' }}
          >
            {t('help.expandAll')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<UnfoldLess />}
            onClick={() => setExpanded(new Set())}
            sx={{ flex: { xs: 1, sm: 'none' }, whiteSpace: 'nowrap' }}
          >
            {t('help.collapseAll')}
          </Button>
        </Stack>
      </ListToolbar>

      <Box>
        <Box
          role="status"
          aria-live="polite"
          sx={{ color: 'text.secondary', typography: 'body2', mb: words.length > 0 ? 1.5 : 0 }}
        >
          {words.length > 0 &&
            (visible.length === 0 ? t('help.noMatch') : t('help.matches', { count: visible.length }))}
        </Box>
        {topicsQuery.isPending && (
          <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
            <CircularProgress size={20} />
            <Typography sx={{ color: 'text.secondary' }}>{t('help.loading')}</Typography>
          </Stack>
        )}
        {topicsQuery.isError && (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void topicsQuery.refetch()}>
                {t('help.retry')}
              </Button>
            }
          >
            {t('help.loadFailed')}
          </Alert>
        )}
        {visible.map((topic) => {
          const summaryId = `help-${topic.id}-summary`;
          const panelId = `help-${topic.id}-panel`;
          return (
            <Accordion
              key={topic.id}
              expanded={expanded.has(topic.id)}
              onChange={(_e, open) => toggle(topic.id, open)}
              disableGutters
              variant="outlined"
              slotProps={{
                heading: { component: 'h2' },
                region: { id: panelId },
                transition: { unmountOnExit: false },
              }}
            >
              <AccordionSummary expandIcon={<ExpandMore />} id={summaryId} aria-controls={panelId}>
                <Typography component="span" sx={{ fontWeight: 600 }}>
                  {topic.title}
                </Typography>
              </AccordionSummary>
              <AccordionDetails>
                <Stack spacing={1.5}>
                  {topic.blocks.map((block, i) => (
                    <Block key={i} block={block} />
                  ))}
                </Stack>
              </AccordionDetails>
            </Accordion>
          );
        })}
      </Box>

      <Paper variant="outlined" component="section" aria-labelledby="help-support" sx={{ p: 2.5 }}>
        <Typography id="help-support" variant="h6" component="h2">
          {t('help.stillStuck')}
        </Typography>
        <Typography>
          {supportBefore}
          <Link href={`mailto:${supportEmail}`}>{supportEmail}</Link>
          {supportAfter}
        </Typography>
      </Paper>

      <ScrollTopButton />
    </Stack>
  );
};
