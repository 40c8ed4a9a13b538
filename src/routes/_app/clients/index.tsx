import { createFileRoute } from '@tanstack/react-router';
import { ClientsScreen } from '../../../features/clients/clients-screen.tsx';

export const Route = createFileRoute('/_app/clients/')({
  component: ClientsScreen,
});
