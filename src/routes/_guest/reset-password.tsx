import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordScreen } from '../../features/auth/reset-password-screen.tsx';

export const Route = createFileRoute('/_guest/reset-password')({
  component: ResetPasswordScreen,
});
