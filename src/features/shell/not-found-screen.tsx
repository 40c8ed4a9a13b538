import { useRouterState } from '@tanstack/react-router';
import { ArrowRight, Compass, Search, X } from 'lucide-react';
import { useState } from 'react';
import {
  Button as AriaButton,
  Input,
  Label,
  Link as AriaLink,
  SearchField,
} from 'react-aria-components';
import type { SitePage } from '../marketing/site-pages.ts';
import { useTakeOverPrerenderedPage } from '../marketing/use-prerendered-takeover.ts';
import { searchSitePages, suggestPagesForPath } from '../marketing/site-search.ts';
import { LinkButton } from '../../ui/link-button.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { PublicLayout } from './public-layout.tsx';

/** Any path the app does not know: a guess at what was meant, a search of the site, a way home. */
export function NotFoundScreen() {
  usePageTitle('Page not found');
  // Served prerendered (404.html) for any unknown path; the live page takes its place.
  useTakeOverPrerenderedPage();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [query, setQuery] = useState('');
  const suggestions = suggestPagesForPath(pathname);
  const trimmed = query.trim();
  const results = trimmed === '' ? [] : searchSitePages(trimmed);
  return (
    <PublicLayout>
      <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center sm:py-24">
        <span className="grid size-16 place-items-center rounded-2xl bg-brand-soft text-brand">
          <Compass aria-hidden="true" size={32} />
        </span>
        <p className="mt-6 text-sm font-semibold tracking-wide text-brand uppercase">Error 404</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-fg sm:text-4xl">
          Page not found
        </h1>
        <p className="mt-4 text-lg text-fg-muted">
          We could not find the page you asked for. It may have moved, or the link may be mistyped.
        </p>

        {suggestions.length > 0 ? (
          <section aria-labelledby="suggestions-heading" className="mt-8 w-full text-left">
            <h2 id="suggestions-heading" className="text-sm font-semibold text-fg">
              Did you mean
            </h2>
            <PageList pages={suggestions} />
          </section>
        ) : null}

        <SearchField
          value={query}
          onChange={setQuery}
          className="group mt-8 flex w-full flex-col text-left"
        >
          <Label className="text-sm font-semibold text-fg">Search the site</Label>
          <div className="relative mt-1.5">
            <Search
              aria-hidden="true"
              size={20}
              className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-fg-muted"
            />
            <Input
              placeholder="Pricing, portal, privacy…"
              className="block min-h-12 w-full rounded-xl border border-border-strong bg-surface py-2.5 pr-12 pl-11 text-base text-fg shadow-sm outline-none placeholder:text-fg-muted data-focused:border-brand data-focus-visible:outline-2 data-focus-visible:outline-offset-1 [&::-webkit-search-cancel-button]:hidden"
            />
            <AriaButton className="absolute top-1/2 right-1.5 grid size-10 -translate-y-1/2 cursor-pointer place-items-center rounded-lg text-fg-muted group-data-empty:hidden hover:bg-surface-muted hover:text-fg">
              <X aria-hidden="true" size={18} />
            </AriaButton>
          </div>
        </SearchField>
        <div className="w-full text-left">
          <p role="status" className="mt-2 min-h-5 text-sm text-fg-muted">
            {trimmed === ''
              ? ''
              : results.length === 0
                ? `No page matches “${trimmed}”.`
                : `${results.length} ${results.length === 1 ? 'page matches' : 'pages match'} “${trimmed}”.`}
          </p>
          {results.length > 0 ? <PageList pages={results} label="Search results" /> : null}
        </div>

        <div className="mt-10 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          <LinkButton href="/" size="large">
            Go to the home page
          </LinkButton>
          <LinkButton href="/dashboard" variant="secondary" size="large">
            Open your dashboard
          </LinkButton>
        </div>
      </div>
    </PublicLayout>
  );
}

function PageList({ pages, label }: { pages: readonly SitePage[]; label?: string }) {
  return (
    <ul aria-label={label} className="mt-2 flex flex-col gap-2">
      {pages.map((page) => (
        <li key={page.path}>
          <AriaLink
            href={page.path}
            className="group flex cursor-pointer items-center justify-between gap-4 rounded-xl border border-border bg-surface px-4 py-3 hover:border-border-strong hover:bg-surface-muted"
          >
            <span>
              <span className="block font-semibold text-fg">{page.name}</span>
              <span className="line-clamp-2 block text-sm text-fg-muted">{page.description}</span>
            </span>
            <ArrowRight
              aria-hidden="true"
              size={18}
              className="shrink-0 text-fg-muted group-hover:text-brand"
            />
          </AriaLink>
        </li>
      ))}
    </ul>
  );
}
