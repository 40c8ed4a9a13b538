/**
 * A project's Calendar tab: the calendar (calendar-view.tsx) with only this project's things;
 * the view and day are kept while the tab is open. Loaded with the tab (its own chunk).
 */
import { useState } from 'react';
import type { LocalProject } from '../../db/app-database.ts';
import type { CalendarViewKind, Day } from './calendar-dates.ts';
import { CalendarView } from './calendar-view.tsx';

export default function CalendarTab({
  project,
  initialDay,
}: {
  project: LocalProject;
  /** The day shown first (today when absent). */
  initialDay?: Day;
}) {
  const [state, setState] = useState<{ view: CalendarViewKind; anchor: Day | undefined }>({
    view: 'month',
    anchor: initialDay,
  });
  return (
    <CalendarView view={state.view} anchor={state.anchor} onNavigate={setState} project={project} />
  );
}
