import { createFileRoute } from '@tanstack/react-router';
import { TermsScreen } from '../../features/marketing/terms-screen.tsx';

export const Route = createFileRoute('/_public/terms-of-service')({
  component: TermsScreen,
});
