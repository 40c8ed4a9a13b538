import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function FeaturesScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Features"
      lead="Everything a freelancer or a small agency needs, in one workspace that works offline."
      comingSoon="A tour of clients, projects, tasks, files, chat, payments and the client portal, with screenshots of each."
    />
  );
}
