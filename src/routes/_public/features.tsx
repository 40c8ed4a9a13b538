import { createFileRoute } from '@tanstack/react-router';
import { FeaturesScreen } from '../../features/marketing/features-screen.tsx';

export const Route = createFileRoute('/_public/features')({
  component: FeaturesScreen,
});
