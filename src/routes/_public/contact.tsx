import { createFileRoute } from '@tanstack/react-router';
import { ContactScreen } from '../../features/marketing/contact-screen.tsx';

export const Route = createFileRoute('/_public/contact')({
  component: ContactScreen,
});
