import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function DemoScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Demo"
      lead="See Satchel at work before you sign up."
      comingSoon="A hands-on demo workspace with sample clients, projects and tasks that you can click through."
    />
  );
}
