import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
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
import { SUPPORT_EMAIL, serverInfoQuery } from '../../lib/server-info.ts';
import { helpTopics, topicText, type HelpBlock, type HelpTopic } from './help-topics.ts';

const FIRST_TOPIC = helpTopics[0]?.id ?? '';

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
  const trigger = useScrollTrigger({ disableHysteresis: true, threshold: 200 });
  return (
    <Zoom in={trigger}>
      <Fab
        color="primary"
        size="medium"
        aria-label="Scroll to top"
        onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
        sx={{ position: 'fixed', right: { xs: 16, sm: 24 }, bottom: { xs: 16, sm: 24 } }}
        tabIndex={trigger ? 0 : -1}
      >
        <KeyboardArrowUp />
      </Fab>
    </Zoom>
  );
};

const matches = (topic: HelpTopic, words: string[]) => {
  const text = topicText(topic).toLowerCase();
  return words.every((w) => text.includes(w));
};

/** Help Center (02-admin §2): a searchable accordion of topics, the first one open. */
export const HelpPage = () => {
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set([FIRST_TOPIC]));
  const info = useQuery(serverInfoQuery());
  const supportEmail = info.data?.supportEmail ?? SUPPORT_EMAIL;

  const words = useMemo(() => search.trim().toLowerCase().split(/\s+/).filter(Boolean), [search]);
  const visible = useMemo(
    () => (words.length === 0 ? helpTopics : helpTopics.filter((t) => matches(t, words))),
    [words],
  );

  const onSearch = (value: string) => {
    setSearch(value);
    const w = value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    // While searching, the matching topics open; clearing the search goes back to the first topic.
    setExpanded(
      new Set(w.length === 0 ? [FIRST_TOPIC] : helpTopics.filter((t) => matches(t, w)).map((t) => t.id)),
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
          Help Center
        </Typography>
        <Typography sx={{ color: 'text.secondary' }}>
          How Kodi works, page by page. Search, or open a topic.
        </Typography>
      </Stack>

      <ListToolbar label="Search help" value={search} onChange={onSearch} wide>
        <Stack direction="row" spacing={1}>
          <Button
            variant="outlined"
            startIcon={<UnfoldMore />}
            onClick={() => setExpanded(new Set(visible.map((t) => t.id)))}
            sx={{ flex: { xs: 1, sm: 'none' }, whiteSpace: 'nowrap' }}
          >
            Expand all
          </Button>
          <Button
            variant="outlined"
            startIcon={<UnfoldLess />}
            onClick={() => setExpanded(new Set())}
            sx={{ flex: { xs: 1, sm: 'none' }, whiteSpace: 'nowrap' }}
          >
            Collapse all
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
            (visible.length === 0
              ? 'No help topics match your search.'
              : `${visible.length} ${visible.length === 1 ? 'topic matches' : 'topics match'} your search.`)}
        </Box>
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
          Still stuck?
        </Typography>
        <Typography>
          Write to support at <Link href={`mailto:${supportEmail}`}>{supportEmail}</Link>.
        </Typography>
      </Paper>

      <ScrollTopButton />
    </Stack>
  );
};
