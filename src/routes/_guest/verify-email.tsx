import { createFileRoute } from '@tanstack/react-router';
import { VerifyEmailScreen } from '../../features/auth/verify-email-screen.tsx';

export const Route = createFileRoute('/_guest/verify-email')({
  component: VerifyEmailScreen,
});
