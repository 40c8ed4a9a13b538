import { createFileRoute } from '@tanstack/react-router';
import { FeedbackScreen } from '../../features/marketing/feedback-screen.tsx';

export const Route = createFileRoute('/_public/feedback')({
  component: FeedbackScreen,
});
