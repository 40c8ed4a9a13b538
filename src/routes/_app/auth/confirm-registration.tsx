import { createFileRoute } from '@tanstack/react-router';
import { ConfirmRegistrationScreen } from '../../../features/auth/confirm-registration-screen.tsx';

export const Route = createFileRoute('/_app/auth/confirm-registration')({
  component: ConfirmRegistrationScreen,
});
