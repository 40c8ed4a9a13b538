import {
  Bell,
  CalendarDays,
  FolderKanban,
  GitPullRequestArrow,
  LayoutDashboard,
  ReceiptText,
  Settings,
  Users,
} from 'lucide-react';

/**
 * Signed-in navigation, in display order. `shortLabel` fits the phone bottom bar; `bottomBar:
 * false` leaves an item out of that bar (it holds seven at 360 px), when the header already has
 * it (the bell opens notifications).
 */
export const appNavItems = [
  { to: '/dashboard', label: 'Dashboard', shortLabel: 'Home', Icon: LayoutDashboard },
  { to: '/projects', label: 'Projects', shortLabel: 'Projects', Icon: FolderKanban },
  { to: '/clients', label: 'Clients', shortLabel: 'Clients', Icon: Users },
  { to: '/calendar', label: 'Calendar', shortLabel: 'Calendar', Icon: CalendarDays },
  { to: '/invoices', label: 'Invoices', shortLabel: 'Invoices', Icon: ReceiptText },
  {
    to: '/change-requests',
    label: 'Change requests',
    shortLabel: 'Requests',
    Icon: GitPullRequestArrow,
  },
  {
    to: '/notifications',
    label: 'Notifications',
    shortLabel: 'Alerts',
    Icon: Bell,
    bottomBar: false,
  },
  { to: '/settings', label: 'Settings', shortLabel: 'Settings', Icon: Settings },
] as const;
