import { createFileRoute } from '@tanstack/react-router';
import { HomeScreen } from '../../features/marketing/home-screen.tsx';

export const Route = createFileRoute('/_public/')({
  component: HomeScreen,
});
