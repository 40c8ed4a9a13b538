import { ChevronDown, Search, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import {
  Button as AriaButton,
  Disclosure,
  DisclosureGroup,
  DisclosurePanel,
  Heading,
  Input,
  Label,
  SearchField,
  type Key,
} from 'react-aria-components';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { faqSearchText, faqTopics, type FaqItem } from './faq-content.ts';
import { CallToAction, PageHeader } from './marketing-blocks.tsx';
import { sitePageTitle } from './site-pages.ts';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

function normalise(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
}

const searchIndex = new Map<string, string>(
  faqTopics.flatMap((topic) =>
    topic.items.map((item) => [item.id, normalise(faqSearchText(item))]),
  ),
);

/** Ids of the items containing every word of the query. */
export function matchFaq(query: string): Set<string> {
  const terms = normalise(query).split(/\s+/).filter(Boolean);
  const matches = new Set<string>();
  for (const [id, text] of searchIndex) {
    if (terms.every((term) => text.includes(term))) matches.add(id);
  }
  return matches;
}

const itemCount = faqTopics.reduce((sum, topic) => sum + topic.items.length, 0);

/** The FAQ: every answer in an accordion, narrowed and opened by a search. */
export function FaqScreen() {
  usePageTitle(sitePageTitle('/faq'));
  useTakeOverPrerenderedPage();
  const [query, setQuery] = useState('');
  const [expanded, setExpanded] = useState<Set<Key>>(new Set());
  const trimmed = query.trim();
  const matches = useMemo(() => (trimmed === '' ? null : matchFaq(trimmed)), [trimmed]);

  const onQueryChange = (value: string) => {
    setQuery(value);
    // A search opens what it found, so the answer is read without another click.
    setExpanded(value.trim() === '' ? new Set() : new Set(matchFaq(value.trim())));
  };

  const visibleTopics = faqTopics
    .map((topic) => ({
      ...topic,
      items: topic.items.filter((item) => matches === null || matches.has(item.id)),
    }))
    .filter((topic) => topic.items.length > 0);

  const summary =
    matches === null
      ? `${itemCount} questions in ${faqTopics.length} topics.`
      : matches.size === 0
        ? `No answer matches “${trimmed}”.`
        : `${matches.size} ${matches.size === 1 ? 'answer matches' : 'answers match'} “${trimmed}”.`;

  return (
    <>
      <PageHeader
        eyebrow="Help"
        title="Frequently asked questions"
        lead="How Satchel works offline, keeps your data safe, shares projects with your clients and handles payments."
      >
        <SearchField
          value={query}
          onChange={onQueryChange}
          className="group mt-8 flex max-w-xl flex-col"
        >
          <Label className="text-sm font-semibold text-fg">Search the questions</Label>
          <div className="relative mt-1.5">
            <Search
              aria-hidden="true"
              size={20}
              className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-fg-muted"
            />
            <Input
              placeholder="Try: export, password, offline"
              className="block min-h-12 w-full rounded-xl border border-border-strong bg-surface py-2.5 pr-12 pl-11 text-base text-fg shadow-sm outline-none placeholder:text-fg-muted data-focused:border-brand data-focus-visible:outline-2 data-focus-visible:outline-offset-1 [&::-webkit-search-cancel-button]:hidden"
            />
            <AriaButton className="absolute top-1/2 right-1.5 grid size-10 -translate-y-1/2 cursor-pointer place-items-center rounded-lg text-fg-muted group-data-empty:hidden hover:bg-surface-muted hover:text-fg">
              <X aria-hidden="true" size={18} />
            </AriaButton>
          </div>
        </SearchField>
        <p role="status" className="mt-3 text-sm text-fg-muted">
          {summary}
        </p>
      </PageHeader>

      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[14rem_1fr]">
        <nav aria-label="Topics" className="hidden lg:block">
          <ul className="sticky top-24 space-y-1">
            {faqTopics.map((topic) => (
              <li key={topic.id}>
                <a
                  href={`#${topic.id}`}
                  className="flex min-h-10 items-center rounded-lg px-3 text-sm font-medium text-fg-muted hover:bg-surface-muted hover:text-fg"
                >
                  {topic.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0">
          {visibleTopics.length === 0 ? (
            <div className="rounded-2xl border border-dashed border-border-strong bg-surface p-8 text-center">
              <p className="text-lg font-semibold text-fg">Nothing found for “{trimmed}”</p>
              <p className="mt-2 text-fg-muted">
                Try fewer or other words, or <TextLink href="/contact">ask us directly</TextLink>.
              </p>
            </div>
          ) : (
            <div className="flex flex-col gap-12">
              {visibleTopics.map((topic) => (
                <section key={topic.id} aria-labelledby={topic.id}>
                  <h2
                    id={topic.id}
                    className="scroll-mt-24 text-2xl font-bold tracking-tight text-fg"
                  >
                    {topic.title}
                  </h2>
                  <DisclosureGroup
                    allowsMultipleExpanded
                    expandedKeys={expanded}
                    onExpandedChange={setExpanded}
                    className="mt-4 divide-y divide-border overflow-hidden rounded-2xl border border-border bg-surface"
                  >
                    {topic.items.map((item) => (
                      <FaqDisclosure key={item.id} item={item} />
                    ))}
                  </DisclosureGroup>
                </section>
              ))}
            </div>
          )}
          <p className="mt-12 text-fg-muted">
            Still wondering about something? <TextLink href="/contact">Write to us</TextLink>.
          </p>
        </div>
      </div>
      <CallToAction />
    </>
  );
}

function FaqDisclosure({ item }: { item: FaqItem }) {
  return (
    <Disclosure id={item.id} className="group">
      <Heading level={3} className="m-0">
        <AriaButton
          slot="trigger"
          className="flex min-h-14 w-full cursor-pointer items-center justify-between gap-4 px-5 py-4 text-left text-base font-semibold text-fg hover:bg-surface-muted data-focus-visible:-outline-offset-2"
        >
          {item.question}
          <ChevronDown
            aria-hidden="true"
            size={20}
            className="shrink-0 text-fg-muted transition-transform duration-200 group-data-expanded:rotate-180"
          />
        </AriaButton>
      </Heading>
      <DisclosurePanel className="text-fg-muted">
        <div className="flex flex-col gap-3 px-5 pb-5">
          {item.answer.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      </DisclosurePanel>
    </Disclosure>
  );
}
