import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { CalendarScreen } from '../../features/calendar/calendar-screen.tsx';
import { calendarSearchSchema } from '../../features/calendar/calendar-search.ts';

export const Route = createFileRoute('/_app/calendar')({
  /** view (week|agenda; month by default), date (YYYY-MM-DD; today by default). */
  validateSearch: calendarSearchSchema,
  component: CalendarRoute,
});

function CalendarRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  return (
    <CalendarScreen
      search={search}
      // Moving through months replaces the history entry: Back leaves the calendar.
      onSearchChange={(next) => void navigate({ to: '/calendar', search: next, replace: true })}
    />
  );
}
