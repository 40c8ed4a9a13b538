import { createFileRoute } from '@tanstack/react-router';
import { AccountDeletedScreen } from '../../features/settings/account-deleted-screen.tsx';

/** Where the app lands after deleting the account (Settings > Profile > Delete account). */
export const Route = createFileRoute('/_guest/account-deleted')({
  component: AccountDeletedScreen,
});
