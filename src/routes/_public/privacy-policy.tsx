import { createFileRoute } from '@tanstack/react-router';
import { PrivacyScreen } from '../../features/marketing/privacy-screen.tsx';

export const Route = createFileRoute('/_public/privacy-policy')({
  component: PrivacyScreen,
});
