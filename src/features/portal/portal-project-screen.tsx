import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export interface PortalProjectScreenProps {
  projectId: string;
  clientId: string;
}

export function PortalProjectScreen({ projectId, clientId }: PortalProjectScreenProps) {
  return (
    <div data-project-id={projectId} data-client-id={clientId}>
      <PlaceholderPage
        title="Your project"
        comingSoon="Your project as your freelancer shares it: progress, milestones to approve and files to download, also offline."
      />
    </div>
  );
}
