import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function ProjectsScreen() {
  return (
    <PlaceholderPage
      title="Projects"
      comingSoon="All your projects with their client, status, progress and due dates, including those saved offline."
    />
  );
}
