/**
 * /calendar: everything dated in the workspace (see calendar-view.tsx), from the device. The view
 * and the day it shows are URL state (calendar-search.ts), so Back and a shared link keep them;
 * arriving here, focus starts at the page's heading.
 */
import { useEffect, useRef } from 'react';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { WorkspaceGate } from '../workspace/workspace-gate.tsx';
import type { CalendarSearch } from './calendar-search.ts';
import { CalendarView } from './calendar-view.tsx';

export interface CalendarScreenProps {
  search: CalendarSearch;
  onSearchChange: (next: CalendarSearch) => void;
}

export function CalendarScreen({ search, onSearchChange }: CalendarScreenProps) {
  usePageTitle('Calendar');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div>
      <h1
        ref={heading}
        tabIndex={-1}
        className="text-3xl font-bold tracking-tight text-fg outline-none sm:text-4xl"
      >
        Calendar
      </h1>
      <p className="mt-2 max-w-prose text-fg-muted">
        Milestones, task due dates, project dates and events, across your projects. Drag one to
        another day (or press Alt with an arrow key on it), or open it to move it.
      </p>
      <div className="mt-6">
        <WorkspaceGate>
          <CalendarView
            view={search.view ?? 'month'}
            anchor={search.date}
            onNavigate={({ view, anchor }) =>
              onSearchChange({
                ...(view === 'month' ? {} : { view }),
                ...(anchor === undefined ? {} : { date: anchor }),
              })
            }
          />
        </WorkspaceGate>
      </div>
    </div>
  );
}
