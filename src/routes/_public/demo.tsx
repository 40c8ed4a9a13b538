import { createFileRoute } from '@tanstack/react-router';
import { DemoScreen } from '../../features/marketing/demo-screen.tsx';

export const Route = createFileRoute('/_public/demo')({
  component: DemoScreen,
});
