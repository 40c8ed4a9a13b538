import { PlaceholderPage } from '../shell/placeholder-page.tsx';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

export function DemoScreen() {
  useTakeOverPrerenderedPage();
  return (
    <PlaceholderPage
      variant="marketing"
      title="Demo"
      lead="See Satchel at work before you sign up."
      comingSoon="A hands-on demo workspace with sample clients, projects and tasks that you can click through."
    />
  );
}
