import { createFileRoute } from '@tanstack/react-router';
import { FaqScreen } from '../../features/marketing/faq-screen.tsx';

export const Route = createFileRoute('/_public/faq')({
  component: FaqScreen,
});
