import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function ClientPortalDemoScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Client portal demo"
      lead="What your clients see when you share a project with them."
      comingSoon="A sample project as a client sees it in the portal: milestones to approve, files to download and progress at a glance."
    />
  );
}
