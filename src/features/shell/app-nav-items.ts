import {
  Bell,
  CalendarDays,
  FolderKanban,
  GitPullRequestArrow,
  LayoutDashboard,
  Settings,
  Users,
} from 'lucide-react';

/** Signed-in navigation, in display order. `shortLabel` fits the phone bottom bar. */
export const appNavItems = [
  { to: '/dashboard', label: 'Dashboard', shortLabel: 'Home', Icon: LayoutDashboard },
  { to: '/projects', label: 'Projects', shortLabel: 'Projects', Icon: FolderKanban },
  { to: '/clients', label: 'Clients', shortLabel: 'Clients', Icon: Users },
  { to: '/calendar', label: 'Calendar', shortLabel: 'Calendar', Icon: CalendarDays },
  {
    to: '/change-requests',
    label: 'Change requests',
    shortLabel: 'Requests',
    Icon: GitPullRequestArrow,
  },
  { to: '/notifications', label: 'Notifications', shortLabel: 'Alerts', Icon: Bell },
  { to: '/settings', label: 'Settings', shortLabel: 'Settings', Icon: Settings },
] as const;
